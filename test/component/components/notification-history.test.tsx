import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Router } from 'wouter';
import { beforeEach, describe, expect, it } from 'vitest';
import { NotificationHistory } from '@renderer/components/NotificationHistory';
import { useGuardedHashLocation } from '@renderer/lib/navigation-guard';
import { useToastStore, type PastNotification } from '@renderer/stores/toast-store';

const AT = Date.parse('2026-11-26T10:00:00.000Z');
const HISTORY: PastNotification[] = [
  {
    id: 2,
    kind: 'error',
    title: 'Order for Ada Lovelace was refused.',
    detail: 'Email: must be an email address',
    link: { route: '/orders/ord_1001', label: 'Open the order' },
    at: AT,
    read: false,
  },
  {
    id: 1,
    kind: 'success',
    title: 'Protocol saved.',
    detail: null,
    link: null,
    at: AT - 60_000,
    read: false,
  },
];

beforeEach(() =>
  useToastStore.setState({ ...useToastStore.getInitialState(), history: HISTORY }, true),
);

function renderHistory() {
  return render(
    <Router hook={useGuardedHashLocation}>
      <NotificationHistory />
    </Router>,
  );
}

describe('NotificationHistory: the header’s notifications and their history', () => {
  it('counts the unread, lists them newest first, and marks them read when closed', async () => {
    renderHistory();
    await userEvent.click(screen.getByRole('button', { name: 'Notifications, 2 unread' }));
    const dialog = screen.getByRole('dialog', { name: 'Notifications' });
    expect(dialog.textContent).toContain('2 notifications this session, newest first; 2 unread.');
    const entries = within(
      within(dialog).getByRole('list', { name: 'Past notifications' }),
    ).getAllByRole('listitem');
    expect(entries[0]!.textContent).toContain(
      'Problem, unread: Order for Ada Lovelace was refused.',
    );
    expect(entries[0]!.textContent).toContain('Email: must be an email address');
    expect(entries[1]!.textContent).toContain('Done, unread: Protocol saved.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('button', { name: 'Notifications' })).toBeTruthy();
  });

  it('a link followed goes there, marking that one read', async () => {
    renderHistory();
    await userEvent.click(screen.getByRole('button', { name: 'Notifications, 2 unread' }));
    await userEvent.click(screen.getByRole('link', { name: 'Open the order' }));
    expect(window.location.hash).toBe('#/orders/ord_1001');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(useToastStore.getState().history.map((n) => n.read)).toEqual([true, true]);
  });

  it('Mark all read, then Clear empties the history', async () => {
    renderHistory();
    await userEvent.click(screen.getByRole('button', { name: 'Notifications, 2 unread' }));
    const dialog = screen.getByRole('dialog', { name: 'Notifications' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Mark all read' }));
    expect(dialog.textContent).toContain('2 notifications this session, newest first.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Clear' }));
    expect(dialog.textContent).toContain('No notifications yet in this session.');
  });
});
