import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { PracticeState } from '@shared/practice-views';
import { FulfillmentControls } from '@renderer/screens/practice/FulfillmentControls';
import { ServerControls } from '@renderer/screens/practice/ServerControls';
import { installOrderDesk, refuse } from '@test/support/component/fake-order-desk';

const STATE = PracticeState.parse({
  available: true,
  enabled: true,
  offline: false,
  server: 'normal',
  fulfillment: { paused: false, speed: 'normal' },
});

describe('FulfillmentControls', () => {
  it('says how orders move, pauses, changes the speed and steps every order', async () => {
    const desk = installOrderDesk({
      'practice.setFulfillment': () => STATE,
      'practice.stepOrders': () => ({ moved: 2 }),
    });
    const onChange = vi.fn();
    render(
      <FulfillmentControls
        fulfillment={{ paused: false, speed: 'normal' }}
        offline={false}
        onChange={onChange}
      />,
    );
    expect(screen.getByText(/moves a step every minute, from New to Delivered/)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Pause' }));
    await userEvent.selectOptions(screen.getByLabelText('Speed'), 'Fast: a step every 15 seconds');
    await waitFor(() =>
      expect(desk.argsOf('practice.setFulfillment')).toEqual([{ paused: true }, { speed: 'fast' }]),
    );
    expect(onChange).toHaveBeenCalledTimes(2);
    await userEvent.click(screen.getByRole('button', { name: 'Step now' }));
    expect(await screen.findByText('2 orders moved one step.')).toBeTruthy();
    expect(desk.argsOf('practice.stepOrders')).toEqual([{}]);
  });

  it('paused, offers Resume; a refused change is said', async () => {
    const desk = installOrderDesk({
      'practice.setFulfillment': () => refuse('not-connected', 'The sandbox is not running.'),
    });
    render(
      <FulfillmentControls
        fulfillment={{ paused: true, speed: 'slow' }}
        offline={false}
        onChange={vi.fn()}
      />,
    );
    expect(screen.getByText(/Paused: no order moves on its own/)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Resume' }));
    expect(desk.argsOf('practice.setFulfillment')).toEqual([{ paused: false }]);
    expect((await screen.findByRole('alert')).textContent).toContain('The sandbox is not running.');
  });
});

describe('ServerControls', () => {
  it('changes how the server answers, and takes it offline', async () => {
    const desk = installOrderDesk({
      'practice.setServer': ({ server }) => ({ ...STATE, server }),
      'practice.setOffline': ({ offline }) => ({ ...STATE, offline }),
    });
    const onChange = vi.fn();
    render(<ServerControls offline={false} server="slow" onChange={onChange} />);
    expect(screen.getByRole('status').textContent).toContain(
      'online, and slow: every request is answered 3 seconds late',
    );
    await userEvent.selectOptions(screen.getByLabelText('How it answers'), 'failing');
    await waitFor(() => expect(desk.argsOf('practice.setServer')).toEqual([{ server: 'failing' }]));
    await userEvent.click(screen.getByRole('button', { name: 'Take the server offline' }));
    await waitFor(() => expect(desk.argsOf('practice.setOffline')).toEqual([{ offline: true }]));
    expect(onChange).toHaveBeenCalledTimes(2);
  });

  it('offline: says so, cannot change how it answers, and brings it back', async () => {
    const desk = installOrderDesk({
      'practice.setOffline': () => refuse('internal', 'The sandbox could not be restarted.'),
    });
    render(<ServerControls offline server="normal" onChange={vi.fn()} />);
    expect(screen.getByRole('status').textContent).toContain('The practice server is offline');
    expect((screen.getByLabelText('How it answers') as HTMLSelectElement).disabled).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Bring the server back online' }));
    expect(desk.argsOf('practice.setOffline')).toEqual([{ offline: false }]);
    expect((await screen.findByRole('alert')).textContent).toContain(
      'The sandbox could not be restarted.',
    );
  });
});
