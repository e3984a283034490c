import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { PracticeState } from '@shared/practice-views';
import { PracticeSwitch } from '@renderer/screens/connect/PracticeSwitch';
import { useToastStore } from '@renderer/stores/toast-store';
import { installOrderDesk, pass, refuse } from '@test/support/component/fake-order-desk';

const state = (enabled: boolean, available = true): PracticeState => ({
  available,
  enabled,
  offline: false,
  server: 'normal',
  fulfillment: { paused: false, speed: 'normal' },
});

beforeEach(() => useToastStore.setState(useToastStore.getInitialState(), true));

describe('PracticeSwitch: practice mode on the local sandbox', () => {
  it('turns practice mode on through practice.setEnabled, then shows main’s state', async () => {
    let enabled = false;
    const desk = installOrderDesk({
      'practice.state': () => state(enabled),
      'practice.setEnabled': (args) => {
        enabled = args.enabled;
        return state(enabled);
      },
    });
    render(<PracticeSwitch />);
    const toggle = await screen.findByRole('switch', { name: 'Practice on the local sandbox' });
    expect(toggle).toHaveProperty('checked', false);
    expect(screen.getByRole('heading', { name: 'Practice mode' })).toBeTruthy();
    await userEvent.click(toggle);
    expect(desk.argsOf('practice.setEnabled')).toEqual([{ enabled: true }]);
    await waitFor(() => expect(toggle.getAttribute('aria-busy')).toBe('false'));
    expect(toggle).toHaveProperty('checked', true);
    expect(desk.argsOf('practice.state').length).toBeGreaterThanOrEqual(2);
  });

  it('a refused switch goes back, and says why', async () => {
    installOrderDesk({
      'practice.state': () => state(false),
      'practice.setEnabled': () => refuse('not-connected', 'The local sandbox is not active.'),
    });
    render(<PracticeSwitch />);
    const toggle = await screen.findByRole('switch', { name: 'Practice on the local sandbox' });
    await userEvent.click(toggle);
    await waitFor(() => expect(toggle).toHaveProperty('checked', false));
    expect(useToastStore.getState().toasts[0]?.title).toBe(
      'Practice mode could not be switched. Not connected to a server. Choose a connection first.',
    );
  });

  it('not offered while another server is active', async () => {
    installOrderDesk({ 'practice.state': () => state(false, false) });
    const { container } = render(<PracticeSwitch />);
    await pass(0);
    expect(container.innerHTML).toBe('');
  });
});
