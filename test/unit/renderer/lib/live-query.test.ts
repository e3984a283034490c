import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChangeSubject } from '@shared/core-events';
import type { IpcError, IpcResult, OrderDeskApi, ReadChannel } from '@shared/ipc';
import { rendererWindow } from '@test/support/renderer-window';
import type { Read } from '@renderer/lib/live-query';
import type { Page } from '@renderer/lib/paged-query';

/** main's `changed` event as the renderer hears it: the test says when. */
let changedListeners: ((payload: { subjects: ChangeSubject[] }) => void)[] = [];
globalThis.window = rendererWindow({
  // The channels a query reads make its subjects; the test answers the reads itself (reading).
  call: () => Promise.resolve({ ok: true, value: null }),
  on: (event: string, listener: (payload: { subjects: ChangeSubject[] }) => void) => {
    if (event !== 'changed') return () => undefined;
    changedListeners.push(listener);
    return () => {
      changedListeners = changedListeners.filter((l) => l !== listener);
    };
  },
} as unknown as OrderDeskApi);

const { LiveQuery, REREAD_MS } = await import('@renderer/lib/live-query');
const { PagedQuery, rowAt } = await import('@renderer/lib/paged-query');

const change = (...subjects: ChangeSubject[]) => {
  for (const l of [...changedListeners]) l({ subjects });
};
/**
 * A query that reads `channel` (so it listens to that channel's subjects in the contract) and is
 * answered by `answer`, which the test controls.
 */
const reading =
  <A extends unknown[], R>(channel: ReadChannel, answer: (...args: A) => R) =>
  (read: Read, ...args: A): R => {
    void read(channel, {} as never);
    return answer(...args);
  };

const failure: IpcError = { kind: 'network', message: 'no answer', fieldErrors: [] };

/** A read the test answers: each call waits until `answer` (or `fail`) is called for it. */
function controlledReads<A extends unknown[], T>() {
  const waiting: { args: A; resolve: (r: IpcResult<T>) => void }[] = [];
  const read = (...args: A) =>
    new Promise<IpcResult<T>>((resolve) => waiting.push({ args, resolve }));
  return {
    read,
    waiting,
    async answer(value: T, at = 0) {
      const [call] = waiting.splice(at, 1);
      if (!call) throw new Error('no read is waiting');
      call.resolve({ ok: true, value });
      await vi.advanceTimersByTimeAsync(0);
      return call.args;
    },
    async fail(at = 0) {
      const [call] = waiting.splice(at, 1);
      if (!call) throw new Error('no read is waiting');
      call.resolve({ ok: false, error: failure });
      await vi.advanceTimersByTimeAsync(0);
    },
  };
}

beforeEach(() => {
  vi.useFakeTimers();
  changedListeners = [];
});
afterEach(() => {
  vi.useRealTimers();
});

describe('LiveQuery', () => {
  it('reads at once, and again after a change of one of its subjects only', async () => {
    const reads = controlledReads<[], number>();
    const states: unknown[] = [];
    const q = new LiveQuery({
      read: reading('orders.list', reads.read),
      onState: (s) => states.push(s),
    });
    await vi.advanceTimersByTimeAsync(0);
    await reads.answer(1);
    expect(q.current).toEqual({ status: 'ready', data: 1, error: null });

    change('protocols', 'catalog');
    await vi.advanceTimersByTimeAsync(REREAD_MS * 10);
    expect(reads.waiting).toHaveLength(0);

    change('protocols', 'orders');
    await vi.advanceTimersByTimeAsync(0);
    expect(reads.waiting).toHaveLength(1);
    await reads.answer(2);
    expect(q.current.data).toBe(2);
    q.close();
  });

  it('gathers the changes during a read into one read after it', async () => {
    const reads = controlledReads<[], number>();
    const q = new LiveQuery({ read: reading('orders.list', reads.read), onState: () => undefined });
    await vi.advanceTimersByTimeAsync(0);
    await reads.answer(1);
    change('orders');
    await vi.advanceTimersByTimeAsync(REREAD_MS);
    for (let i = 0; i < 20; i++) change('orders');
    await vi.advanceTimersByTimeAsync(1);
    expect(reads.waiting).toHaveLength(1); // never two at once
    await reads.answer(2);
    // The changes meanwhile: one more read, after a rest in proportion to the read (1 ms here).
    await vi.advanceTimersByTimeAsync(REREAD_MS);
    expect(reads.waiting).toHaveLength(1);
    await reads.answer(3);
    await vi.advanceTimersByTimeAsync(REREAD_MS * 10);
    expect(reads.waiting).toHaveLength(0);
    expect(q.current.data).toBe(3);
    q.close();
  });

  it('drops the answer to a replaced read, and keeps the data when a re-read fails', async () => {
    const reads = controlledReads<[string], string>();
    let args = 'a';
    const q = new LiveQuery({
      read: reading('orders.list', () => reads.read(args)),
      onState: () => undefined,
    });
    await vi.advanceTimersByTimeAsync(0);
    args = 'b';
    q.setRead(reading('orders.list', () => reads.read(args)));
    await reads.answer('for a');
    expect(q.current.status).toBe('loading'); // dropped
    await vi.advanceTimersByTimeAsync(REREAD_MS);
    expect((await reads.answer('for b'))[0]).toBe('b');
    expect(q.current.data).toBe('for b');

    change('orders');
    // After the rest that follows a read (in proportion to its time; 50 ms here).
    await vi.advanceTimersByTimeAsync(REREAD_MS * 20);
    await reads.fail();
    expect(q.current).toEqual({ status: 'failed', data: 'for b', error: failure });
    q.close();
    change('orders');
    await vi.advanceTimersByTimeAsync(REREAD_MS * 10);
    expect(reads.waiting).toHaveLength(0);
  });
});

describe('PagedQuery', () => {
  const page = (from: number, n: number, total: number, next: string | null = null) => ({
    rows: Array.from({ length: n }, (_, i) => from + i),
    total,
    next,
  });

  it('reads the pages in view in any order (offset), two at a time', async () => {
    const reads = controlledReads<[number, string | null], Page<number>>();
    const q = new PagedQuery<number>({
      read: reading('orders.list', reads.read),
      pageSize: 10,
      randomAccess: true,
      onState: () => undefined,
    });
    await vi.advanceTimersByTimeAsync(0);
    await reads.answer(page(0, 10, 100));
    expect(q.current.status).toBe('ready');
    q.setView(50, 79); // pages 5, 6, 7
    expect(reads.waiting.map((w) => w.args[0])).toEqual([5, 6]);
    await reads.answer(page(50, 10, 100));
    expect(reads.waiting.map((w) => w.args[0])).toEqual([6, 7]);
    await reads.answer(page(60, 10, 100));
    await reads.answer(page(70, 10, 100));
    expect(rowAt(q.current, 10, 75)).toBe(75);
    expect(rowAt(q.current, 10, 15)).toBeUndefined(); // not in view, never read
    q.close();
  });

  it('reads keyset pages one after the other, each after the last row of the one before', async () => {
    const reads = controlledReads<[number, string | null], Page<number>>();
    const q = new PagedQuery<number>({
      read: reading('patients.sharedIds', reads.read),
      pageSize: 10,
      randomAccess: false,
      onState: () => undefined,
    });
    await vi.advanceTimersByTimeAsync(0);
    await reads.answer(page(0, 10, 40, 'k9'));
    q.setView(25, 34); // pages 2 and 3: page 1 first
    expect(reads.waiting.map((w) => w.args)).toEqual([[1, 'k9']]);
    await reads.answer(page(10, 10, 40, 'k19'));
    expect(reads.waiting.map((w) => w.args)).toEqual([[2, 'k19']]);
    await reads.answer(page(20, 10, 40, 'k29'));
    expect(reads.waiting.map((w) => w.args)).toEqual([[3, 'k29']]);
    await reads.answer(page(30, 10, 40, null));
    expect(rowAt(q.current, 10, 39)).toBe(39);
    q.close();
  });

  it('a change re-reads the pages in view and the total, and drops the pages out of view', async () => {
    const reads = controlledReads<[number, string | null], Page<number>>();
    const q = new PagedQuery<number>({
      read: reading('orders.list', reads.read),
      pageSize: 10,
      randomAccess: true,
      onState: () => undefined,
    });
    await vi.advanceTimersByTimeAsync(0);
    await reads.answer(page(0, 10, 100));
    q.setView(30, 39);
    await reads.answer(page(30, 10, 100));
    expect(q.current.pages.has(0)).toBe(true);

    change('orders');
    await vi.advanceTimersByTimeAsync(REREAD_MS * 20);
    expect(reads.waiting.map((w) => w.args[0])).toEqual([3]);
    await reads.answer(page(1000, 10, 101));
    expect(q.current.total).toBe(101);
    expect(rowAt(q.current, 10, 30)).toBe(1000);
    expect([...q.current.pages.keys()]).toEqual([3]);
    q.close();
  });

  it('new arguments keep the rows shown until their first page answers; older answers are dropped', async () => {
    const reads = controlledReads<[number, string | null], Page<number>>();
    const read = reading('orders.list', (index: number, after: string | null) =>
      reads.read(index, after),
    );
    const q = new PagedQuery<number>({
      read,
      pageSize: 10,
      randomAccess: true,
      onState: () => undefined,
    });
    await vi.advanceTimersByTimeAsync(0);
    await reads.answer(page(0, 10, 100));
    q.setView(20, 29);
    expect(reads.waiting).toHaveLength(1); // page 2, for 'a'
    q.setRead(read); // new arguments (a search typed on)
    expect(q.current.stale).toBe(true);
    expect(rowAt(q.current, 10, 0)).toBe(0); // still shown
    await reads.answer(page(20, 10, 100)); // page 2 for 'a': dropped
    await vi.advanceTimersByTimeAsync(0);
    expect(reads.waiting.map((w) => w.args[0])).toEqual([0]);
    await reads.answer(page(500, 3, 3));
    expect(q.current).toMatchObject({ status: 'ready', stale: false, total: 3 });
    expect(rowAt(q.current, 10, 0)).toBe(500);
    q.close();
  });

  it('a list that counts apart shows its rows first, then its count; a short page needs no count', async () => {
    const reads = controlledReads<[number, string | null], Page<number>>();
    const counts = controlledReads<[], number>();
    const read = reading('patients.sharedIds', (index: number, after: string | null) =>
      reads.read(index, after),
    );
    const q = new PagedQuery<number>({
      read,
      count: reading('patients.sharedIds', counts.read),
      pageSize: 10,
      randomAccess: false,
      onState: () => undefined,
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(counts.waiting).toHaveLength(0); // not before the rows
    await reads.answer({ rows: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], next: 'k9' });
    // The rows are shown at once; the total is what was read, not yet the count.
    expect(q.current).toMatchObject({ status: 'ready', stale: false, counted: false, total: 10 });
    expect(counts.waiting).toHaveLength(1);
    await counts.answer(250);
    expect(q.current).toMatchObject({ counted: true, total: 250 });

    // A change: the count shown stays until the new one answers.
    change('protocols');
    await vi.advanceTimersByTimeAsync(REREAD_MS * 20);
    await reads.answer({ rows: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], next: 'k9' });
    expect(q.current).toMatchObject({ counted: true, total: 250 });
    await counts.answer(251);
    expect(q.current.total).toBe(251);

    // New arguments whose first page is not full: that is the count, none is asked.
    q.setRead(read);
    expect(q.current.stale).toBe(true);
    await vi.advanceTimersByTimeAsync(0);
    await reads.answer({ rows: [7, 8], next: null });
    expect(q.current).toMatchObject({ stale: false, counted: true, total: 2 });
    expect(counts.waiting).toHaveLength(0);

    // A count asked for older arguments is dropped.
    q.setRead(read);
    await vi.advanceTimersByTimeAsync(0);
    await reads.answer({ rows: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], next: 'k9' });
    q.setRead(read);
    await counts.answer(999);
    expect(q.current).toMatchObject({ stale: true, counted: false, total: 10 });
    q.close();
  });

  it('a failed first page fails the list; a failed page while scrolling keeps the rows, and retry reads again', async () => {
    const reads = controlledReads<[number, string | null], Page<number>>();
    const q = new PagedQuery<number>({
      read: reading('orders.list', reads.read),
      pageSize: 10,
      randomAccess: true,
      onState: () => undefined,
    });
    await vi.advanceTimersByTimeAsync(0);
    await reads.fail();
    expect(q.current).toMatchObject({ status: 'failed', error: failure });
    q.retry();
    await vi.advanceTimersByTimeAsync(0);
    await reads.answer(page(0, 10, 100));
    q.setView(10, 19);
    await reads.fail();
    expect(q.current).toMatchObject({ status: 'ready', pageError: failure });
    expect(rowAt(q.current, 10, 5)).toBe(5);
    q.retry();
    await vi.advanceTimersByTimeAsync(0);
    await reads.answer(page(10, 10, 100));
    expect(q.current.pageError).toBeNull();
    expect(rowAt(q.current, 10, 15)).toBe(15);
    q.close();
  });
});
