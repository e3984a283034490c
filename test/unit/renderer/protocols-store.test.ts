import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { IpcResult, OrderDeskApi } from '../../../src/shared/ipc';
import { rendererWindow } from '../../support/renderer-window';
import type { ProtocolSummaryView } from '../../../src/shared/protocol-views';

/** window.orderDesk as the store sees it: each call answered when the test says so. */
interface Pending {
  channel: string;
  args: Record<string, unknown>;
  resolve: (r: IpcResult<unknown>) => void;
}
const pending: Pending[] = [];
globalThis.window = rendererWindow({
  call: (channel: string, args: Record<string, unknown>) =>
    new Promise((resolve) => pending.push({ channel, args, resolve })),
  on: () => () => undefined,
} as unknown as OrderDeskApi);

const { useProtocolsStore, PAGE, BATCH_MAX } =
  await import('../../../src/renderer/src/stores/protocols-store');
const { useBatchDraftStore } = await import('../../../src/renderer/src/stores/batch-draft-store');
const store = () => useProtocolsStore.getState();

const row = (i: number): ProtocolSummaryView => ({
  localId: `id-${i}`,
  serverId: null,
  customerName: `Patient ${i}`,
  sourceId: `PAT-${i}`,
  email: null,
  syncState: 'synced',
  deleted: false,
  localUpdatedAt: 1_700_000_000_000 - i,
  change: null,
});
const rows = (from: number, n: number) => Array.from({ length: n }, (_, i) => row(from + i));
const flush = () => new Promise((r) => setTimeout(r, 0));

/** Answers the oldest call (which must be on `channel`) with `value`. */
async function answer(channel: string, value: unknown) {
  await flush();
  const call = pending.shift();
  expect(call?.channel).toBe(channel);
  call!.resolve({ ok: true, value });
  await flush();
  return call!;
}

const page = (items: ProtocolSummaryView[], total: number, nextCursor: string | null = null) => ({
  items,
  total,
  nextCursor,
});

beforeEach(async () => {
  pending.length = 0;
  store().reset();
  useBatchDraftStore.getState().clear();
  void store().reload();
  await answer('protocols.list', page(rows(0, 10), 10));
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the protocols store', () => {
  it('asks for the newest text once the query in flight answers, and drops the older answer', async () => {
    store().setSearchText('a');
    store().setSearchText('ad');
    store().setSearchText('ada');
    await flush();
    expect(pending).toHaveLength(1); // one query in flight
    expect(pending[0]!.args.search).toBe('a');
    expect(store().stale).toBe(true);
    await answer('protocols.list', page([row(1)], 1));
    expect(store().search).toBe(''); // the answer to "a" was not shown
    const second = await answer('protocols.list', page([row(2)], 1));
    expect(second.args.search).toBe('ada');
    expect(store().search).toBe('ada');
    expect(store().items.map((p) => p.localId)).toEqual(['id-2']);
    expect(store().stale).toBe(false);
    expect(pending).toHaveLength(0);
  });

  it('pages on with the cursor and keeps the rows of earlier pages', async () => {
    store().reset();
    void store().reload();
    await answer('protocols.list', page(rows(0, PAGE), 250, 'c1'));
    void store().loadMore();
    const next = await answer('protocols.list', page(rows(PAGE, PAGE), 250, 'c2'));
    expect(next.args.cursor).toBe('c1');
    expect(store().items).toHaveLength(2 * PAGE);
    expect(store().pageCursors).toEqual([null, 'c1']);
    expect(store().nextCursor).toBe('c2');
  });

  it('on another connection while on screen, asks for its protocols even with a query in flight', async () => {
    const detach = store().attach(); // back on the list: its first page is asked again
    await flush();
    expect(pending).toHaveLength(1);
    store().reset(); // the connection changed while that query was in flight
    await answer('protocols.list', page([row(1)], 1)); // the old connection's answer: dropped
    await answer('protocols.list', page(rows(20, 3), 3));
    expect(pending).toHaveLength(0);
    expect(store().listState).toBe('ready');
    expect(store().items.map((p) => p.localId)).toEqual(['id-20', 'id-21', 'id-22']);
    detach();
  });

  it('selects a range from the anchor to a shift-clicked row, in either direction', () => {
    store().toggle('id-2');
    store().toggle('id-5', true);
    expect([...store().selected].sort()).toEqual(['id-2', 'id-3', 'id-4', 'id-5']);
    store().toggle('id-3', true); // id-3 was on: 5..3 turns off
    expect([...store().selected]).toEqual(['id-2']);
    expect(store().selectedShown).toBe(1);
  });

  it('keeps selected rows that leave the search, and counts how many are hidden', async () => {
    store().toggle('id-1');
    store().toggle('id-2');
    store().setSearchText('patient 2');
    await answer('protocols.list', page([row(2)], 1));
    const count = await answer('protocols.matchingIds', { localIds: ['id-2'] });
    expect(count.args).toEqual({ search: 'patient 2' });
    expect(store().selected.size).toBe(2);
    expect(store().selectedShown).toBe(1);
  });

  it('select all matching adds every matching id to the selection', async () => {
    store().toggle('id-0');
    store().setSyncStates(['pending']);
    await answer('protocols.list', page([row(7)], 3));
    await answer('protocols.matchingIds', { localIds: ['id-7', 'id-8', 'id-9'] });
    void store().selectAllMatching();
    const call = await answer('protocols.matchingIds', { localIds: ['id-7', 'id-8', 'id-9'] });
    expect(call.args).toEqual({ search: '', syncStates: ['pending'] });
    expect([...store().selected].sort()).toEqual(['id-0', 'id-7', 'id-8', 'id-9']);
    expect(store().selectedShown).toBe(3);
  });

  it('select all matching counts only the protocols it selected (not those being deleted)', async () => {
    const { usePendingDeleteStore } =
      await import('../../../src/renderer/src/stores/pending-delete-store');
    usePendingDeleteStore.getState().schedule('id-8', 'Patient 8', () => undefined);
    void store().selectAllMatching();
    await answer('protocols.matchingIds', { localIds: ['id-7', 'id-8', 'id-9'] });
    expect([...store().selected].sort()).toEqual(['id-7', 'id-9']);
    expect(store().selectedShown).toBe(2);
    usePendingDeleteStore.getState().undo('id-8');
  });

  it('a deleted protocol leaves the selection, and the shown ones are counted again', async () => {
    store().toggle('id-1');
    store().toggle('id-2');
    store().setSearchText('patient');
    await answer('protocols.list', page(rows(0, 10), 10));
    await answer('protocols.matchingIds', { localIds: ['id-1', 'id-2'] });
    expect(store().selectedShown).toBe(2);
    store().deselect(['id-2']);
    expect([...store().selected]).toEqual(['id-1']);
    expect(store().anchor).toBeNull();
    await answer('protocols.matchingIds', { localIds: ['id-1'] });
    expect(store().selectedShown).toBe(1);
    store().deselect(['id-9']); // not selected: nothing to count again
    expect(pending).toHaveLength(0);
  });

  it('re-reads the rows on screen at most every 400 ms however many events arrive', async () => {
    vi.useFakeTimers();
    const off = store().attach();
    await vi.advanceTimersByTimeAsync(0);
    pending.shift()!.resolve({ ok: true, value: page(rows(0, 10), 10) }); // attach's reload
    await vi.advanceTimersByTimeAsync(0);
    for (let i = 0; i < 50; i++) store().changed();
    await vi.advanceTimersByTimeAsync(0);
    expect(pending).toHaveLength(1);
    pending.shift()!.resolve({ ok: true, value: page([{ ...row(0), syncState: 'pending' }], 10) });
    await vi.advanceTimersByTimeAsync(0);
    expect(store().items[0]!.syncState).toBe('pending');
    for (let i = 0; i < 50; i++) store().changed();
    await vi.advanceTimersByTimeAsync(100);
    expect(pending).toHaveLength(0); // still within 400 ms of the last re-read
    await vi.advanceTimersByTimeAsync(400);
    expect(pending).toHaveLength(1);
    pending.shift()!.resolve({ ok: true, value: page(rows(0, 10), 10) });
    off();
    store().changed(); // not on screen: nothing is read
    await vi.advanceTimersByTimeAsync(1000);
    expect(pending).toHaveLength(0);
  });

  it('knows the most protocols a batch takes, as the contract says', async () => {
    const { ReviewBatch } = await import('../../../src/shared/work-views');
    const ids = (n: number) =>
      Array.from({ length: n }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
    expect(ReviewBatch.safeParse({ protocolLocalIds: ids(BATCH_MAX) }).success).toBe(true);
    expect(ReviewBatch.safeParse({ protocolLocalIds: ids(BATCH_MAX + 1) }).success).toBe(false);
  });

  it('clears the selection once a batch made of it was submitted', () => {
    store().toggle('id-1');
    useBatchDraftStore.getState().choose([...store().selected], '/protocols');
    expect(store().selected.size).toBe(1);
    useBatchDraftStore.getState().clear(); // the review clears its draft after a submit
    expect(store().selected.size).toBe(0);
  });
});
