import { describe, expect, it } from 'vitest';
import { filterItems, newestFirst, type BatchProgress } from '@renderer/stores/batch-progress';
import type { BatchItemView, BatchView } from '@shared/work-views';

const progress = (batchId: string, over: Partial<BatchProgress> = {}): BatchProgress => ({
  batchId,
  state: 'running',
  total: 4,
  queued: 4,
  sending: 0,
  inDoubt: 0,
  created: 0,
  rejected: 0,
  held: 0,
  possibleDuplicates: 0,
  repeatsCancelled: 0,
  ...over,
});
const batch = (id: string, createdAt: number): BatchView => ({
  id,
  createdAt,
  finishedAt: null,
  concurrency: 4,
  name: null,
  ordered: {
    standing: { orders: 0, amount: '0.00' },
    cancelled: { orders: 0, amount: '0.00' },
    refused: 0,
  },
  single: null,
  progress: progress(id),
});

describe('batch progress', () => {
  it('lists batches newest first', () => {
    expect(newestFirst([batch('a', 1), batch('b', 3), batch('c', 2)]).map((b) => b.id)).toEqual([
      'b',
      'c',
      'a',
    ]);
  });

  it('filters the items that need a look', () => {
    const item = (seq: number, state: BatchItemView['state']): BatchItemView => ({
      seq,
      protocolLocalId: null,
      customerName: 'A B',
      sourceId: `s-${seq}`,
      state,
      orderId: state === 'done' ? `o-${seq}` : null,
      orderStatus: state === 'done' ? 'NEW' : null,
      attempts: 1,
      message: null,
      held: [],
      possibleDuplicates: [],
    });
    const items = [item(0, 'done'), item(1, 'rejected'), item(2, 'in_doubt'), item(3, 'queued')];
    expect(filterItems(items, 'all')).toHaveLength(4);
    expect(filterItems(items, 'attention').map((i) => i.seq)).toEqual([1, 2]);
    expect(filterItems(items, 'created').map((i) => i.seq)).toEqual([0]);

    // A repeat the app cancelled needs no look, and a cancelled order is not among the created.
    const repeat = { orderId: 'o-9', of: 'o-8', status: 'CANCELLED', autoCancel: 'done' as const };
    const cancelled: BatchItemView = {
      ...item(4, 'done'),
      orderStatus: 'CANCELLED',
      possibleDuplicates: [repeat],
    };
    const open: BatchItemView = {
      ...item(5, 'done'),
      possibleDuplicates: [{ ...repeat, autoCancel: null }],
    };
    expect(filterItems([cancelled, open], 'attention').map((i) => i.seq)).toEqual([5]);
    expect(filterItems([cancelled, open], 'created').map((i) => i.seq)).toEqual([5]);
  });
});
