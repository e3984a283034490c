import { useCallback, useRef, useState } from 'react';
import type { CreateOrder, OrderReviewView } from '@shared/work-views';
import { call, errorMessage } from '@renderer/lib/ipc';
import { toast } from '@renderer/stores/toast-store';

/** A past order asked for again, as main reviewed it, and whether its confirmation is open. */
export interface Confirming {
  input: CreateOrder;
  review: OrderReviewView;
  open: boolean;
}

/**
 * Ordering a past order again: main reviews it as one order (orders.review, from: 'order'), the
 * user confirms it in the same confirmation as Order now, and it is created exactly once as a
 * batch of one (orders.create), followed by its batch id.
 */
export function useReorder() {
  const [confirming, setConfirming] = useState<Confirming | null>(null);
  const [reviewingId, setReviewingId] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [batchId, setBatchId] = useState<string | null>(null);
  const busy = useRef(false);

  const ask = useCallback(async (orderId: string) => {
    if (busy.current) return;
    busy.current = true;
    setReviewingId(orderId);
    const input: CreateOrder = { from: 'order', orderId };
    const result = await call('orders.review', input);
    busy.current = false;
    setReviewingId(null);
    if (!result.ok) {
      toast.error(`Order ${orderId} cannot be ordered again.`, errorMessage(result.error));
      return;
    }
    setConfirming({ input, review: result.value, open: true });
  }, []);

  const close = useCallback(() => setConfirming((c) => c && { ...c, open: false }), []);

  const confirm = useCallback(async () => {
    if (!confirming?.open || busy.current) return;
    busy.current = true;
    setSending(true);
    // Ordered beside the orders the confirmation showed it repeating (the user saw them).
    const allowDuplicateOf = confirming.review.items
      .flatMap((i) => i.repeats)
      .flatMap((o) => (o.orderId === null ? [] : [o.orderId]));
    const result = await call('orders.create', {
      ...confirming.input,
      ...(allowDuplicateOf.length > 0 ? { allowDuplicateOf } : {}),
    });
    busy.current = false;
    setSending(false);
    close();
    if (!result.ok) {
      toast.error('The order was not placed.', errorMessage(result.error));
      return;
    }
    setBatchId(result.value.batchId);
  }, [confirming, close]);

  return { confirming, reviewingId, sending, batchId, ask, confirm, close };
}
