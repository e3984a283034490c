import { useCallback, useRef, useState } from 'react';
import type { CreateOrder, OrderReviewView } from '@shared/work-views';
import { call, errorMessage } from '@renderer/lib/ipc';
import { toast } from '@renderer/stores/toast-store';

/** One order asked for (a protocol, or a past order again), as main reviewed it. */
export interface Confirming {
  input: CreateOrder;
  review: OrderReviewView;
  open: boolean;
}

/** What can be ordered from the patient's screen: one of their protocols, or a past order. */
export type OrderSource =
  { from: 'protocol'; protocolLocalId: string } | { from: 'order'; orderId: string };

/** The id of what is ordered: the protocol's local id or the order's id (they never collide). */
export const sourceKey = (s: OrderSource): string =>
  s.from === 'protocol' ? s.protocolLocalId : s.orderId;

/** Why it could not be reviewed, and where to fix it. */
function refused(source: OrderSource, detail: string) {
  if (source.from === 'order') {
    toast.error(`Order ${source.orderId} cannot be ordered again.`, detail);
    return;
  }
  toast.error('This protocol cannot be ordered yet.', detail, {
    link: { route: `/protocols/${source.protocolLocalId}`, label: 'Open the protocol' },
  });
}

/**
 * One order from the patient's screen, as Order now places one from the editor: main reviews it
 * (orders.review), the user confirms it in the same confirmation (ConfirmOneOrder), and it is
 * created exactly once as a batch of one (orders.create), followed by its batch id.
 */
export function useReorder() {
  const [confirming, setConfirming] = useState<Confirming | null>(null);
  const [reviewingId, setReviewingId] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [batchId, setBatchId] = useState<string | null>(null);
  const busy = useRef(false);

  const ask = useCallback(async (source: OrderSource) => {
    if (busy.current) return;
    busy.current = true;
    setReviewingId(sourceKey(source));
    const input: CreateOrder = source;
    const result = await call('orders.review', input);
    busy.current = false;
    setReviewingId(null);
    if (!result.ok) {
      refused(source, errorMessage(result.error));
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
