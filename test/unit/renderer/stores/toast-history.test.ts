import { beforeEach, describe, expect, it, vi } from 'vitest';
import { HISTORY_MAX, toast, useToastStore } from '@renderer/stores/toast-store';

const state = () => useToastStore.getState();

describe('the notification history', () => {
  beforeEach(() => {
    useToastStore.setState({ toasts: [], history: [], historyOpen: false });
    vi.useFakeTimers({ now: new Date('2026-11-28T09:00:00.000Z') });
    return () => vi.useRealTimers();
  });

  it('keeps every notification newest first, with its time and link, after its toast is gone', () => {
    const link = { route: '/orders/ord_1', label: 'Open the order' };
    toast.success('Order shipped', 'Order ord_1 for Nora Quill is on its way.', { link });
    vi.advanceTimersByTime(60_000);
    toast.error('Sync failed', 'The server could not be reached.');
    vi.advanceTimersByTime(10_000);
    // The success toast has gone away by itself; the error stays until dismissed.
    expect(state().toasts.map((t) => t.title)).toEqual(['Sync failed']);
    expect(state().history.map((n) => [n.title, n.at, n.read, n.link])).toEqual([
      ['Sync failed', Date.parse('2026-11-28T09:01:00.000Z'), false, null],
      ['Order shipped', Date.parse('2026-11-28T09:00:00.000Z'), false, link],
    ]);
  });

  it('marks one or every notification read, and Clear empties it', () => {
    const first = toast.info('One');
    toast.info('Two');
    state().markRead(first);
    expect(state().history.map((n) => n.read)).toEqual([false, true]);
    state().markRead();
    expect(state().history.map((n) => n.read)).toEqual([true, true]);
    state().clearHistory();
    expect(state().history).toEqual([]);
  });

  it(`keeps the newest ${HISTORY_MAX}`, () => {
    for (let i = 0; i < HISTORY_MAX + 5; i++) toast.info(`Note ${i}`);
    expect(state().history).toHaveLength(HISTORY_MAX);
    expect(state().history[0]!.title).toBe(`Note ${HISTORY_MAX + 4}`);
  });
});
