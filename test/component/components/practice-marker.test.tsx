import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { PracticeMarker } from '@renderer/components/PracticeMarker';
import { installOrderDesk } from '@test/support/component/fake-order-desk';

const PRACTICE = {
  available: true,
  enabled: true,
  offline: false,
  server: 'normal' as const,
};

describe('PracticeMarker: the header mark, pausing and resuming the practice orders', () => {
  it('pauses the orders through its lib command, then asks the header to read again', async () => {
    const desk = installOrderDesk({
      'practice.setFulfillment': ({ paused }) => ({
        ...PRACTICE,
        fulfillment: { paused: paused ?? false, speed: 'normal' },
      }),
    });
    const onChange = vi.fn();
    render(<PracticeMarker fulfillment={{ paused: false, speed: 'normal' }} onChange={onChange} />);
    expect(screen.getByTestId('practice-marker').textContent).toBe('Practice mode');
    await userEvent.click(screen.getByRole('button', { name: 'Pause orders' }));
    expect(desk.argsOf('practice.setFulfillment')).toEqual([{ paused: true }]);
    expect(onChange).toHaveBeenCalledTimes(1);
  });

  it('paused: says so and offers Resume', async () => {
    const desk = installOrderDesk({
      'practice.setFulfillment': () => ({
        ...PRACTICE,
        fulfillment: { paused: false, speed: 'normal' },
      }),
    });
    render(
      <PracticeMarker fulfillment={{ paused: true, speed: 'normal' }} onChange={() => undefined} />,
    );
    expect(screen.getByTestId('practice-marker').textContent).toBe('Practice mode, paused');
    await userEvent.click(screen.getByRole('button', { name: 'Resume orders' }));
    expect(desk.argsOf('practice.setFulfillment')).toEqual([{ paused: false }]);
  });
});
