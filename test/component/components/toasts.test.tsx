import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { act } from 'react';
import { Router } from 'wouter';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Toasts } from '@renderer/components/Toasts';
import { useGuardedHashLocation } from '@renderer/lib/navigation-guard';
import { toast, useToastStore } from '@renderer/stores/toast-store';

beforeEach(() => useToastStore.setState(useToastStore.getInitialState(), true));

function renderToasts() {
  return render(
    <Router hook={useGuardedHashLocation}>
      <Toasts />
    </Router>,
  );
}

describe('Toasts: notifications in one labelled region', () => {
  it('an error is an alert with its link; following it dismisses the toast', async () => {
    renderToasts();
    act(() => {
      toast.error('Order for Ada Lovelace was refused.', 'Email: must be an email address', {
        link: { route: '/orders/ord_1001', label: 'Open the order' },
      });
    });
    const region = screen.getByRole('region', { name: 'Notifications' });
    const alert = within(region).getByRole('alert');
    expect(alert.textContent).toContain('Order for Ada Lovelace was refused.');
    expect(alert.textContent).toContain('Email: must be an email address');
    await userEvent.click(within(alert).getByRole('link', { name: 'Open the order' }));
    expect(window.location.hash).toBe('#/orders/ord_1001');
    expect(within(region).queryByRole('alert')).toBeNull();
    expect(useToastStore.getState().history[0]!.read).toBe(true);
  });

  it('an action (Undo) runs and dismisses; the close button dismisses', async () => {
    renderToasts();
    const undo = vi.fn();
    act(() => {
      toast.info('Protocol deleted.', null, {
        action: { label: 'Undo', run: undo },
        durationMs: 60_000,
      });
      toast.error('Sync failed.', 'The server is unavailable.');
    });
    const status = screen.getByRole('status');
    await userEvent.click(within(status).getByRole('button', { name: 'Undo' }));
    expect(undo).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('status')).toBeNull();
    await userEvent.click(
      within(screen.getByRole('alert')).getByRole('button', { name: 'Dismiss notification' }),
    );
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows the newest three; "+N more" opens the history', async () => {
    renderToasts();
    act(() => {
      for (const n of [1, 2, 3, 4, 5]) toast.error(`Problem ${n}.`);
    });
    expect(screen.getAllByRole('alert').map((a) => a.textContent)).toEqual([
      'Problem 3.',
      'Problem 4.',
      'Problem 5.',
    ]);
    await userEvent.click(screen.getByRole('button', { name: /^\+2 more/ }));
    expect(useToastStore.getState().historyOpen).toBe(true);
  });
});
