import { useRef, useState } from 'react';
import type { IpcError } from '@shared/ipc';
import type { CreateOrder, OrderReviewView } from '@shared/work-views';
import { placeOrder as createOrder, reviewOrder } from './protocol-commands';

/**
 * Order now and Place order: main reviews the order, the user confirms it, then it is followed
 * by its batch. `failed` shows what went wrong on the form.
 */
export function useOrderNow(failed: (what: string, error: IpcError) => void, clear: () => void) {
  const [batchId, setBatchId] = useState<string | null>(null);
  const [ordering, setOrdering] = useState(false);
  const [reviewingOrder, setReviewingOrder] = useState(false);
  const reviewing = useRef(false);
  /**
   * The order asked for, as main reviewed it, and whether its confirmation is open (kept once
   * closed, so that the dialog closes as it opened and gives the focus back).
   */
  const [confirming, setConfirming] = useState<{
    input: CreateOrder;
    review: OrderReviewView;
    open: boolean;
  } | null>(null);
  const closeConfirmation = () => setConfirming((c) => c && { ...c, open: false });
  const [orderSettled, setOrderSettled] = useState<'created' | 'rejected' | null>(null);

  /** Order now and Place order ask first: main reviews the order, the user confirms it. */
  const askToOrder = async (input: CreateOrder) => {
    if (reviewing.current) return;
    reviewing.current = true;
    setReviewingOrder(true);
    clear();
    const result = await reviewOrder(input);
    reviewing.current = false;
    setReviewingOrder(false);
    if (!result.ok) return failed('The order was not placed', result.error);
    setConfirming({ input, review: result.value, open: true });
  };

  const placeOrder = async () => {
    if (!confirming?.open || ordering) return;
    setOrdering(true);
    // Ordered beside the orders the confirmation showed it repeating (the user saw them).
    const repeats = confirming.review.items.flatMap((i) => i.repeats);
    const allowDuplicateOf = repeats.flatMap((o) => (o.orderId === null ? [] : [o.orderId]));
    const result = await createOrder(confirming.input, allowDuplicateOf);
    setOrdering(false);
    closeConfirmation();
    if (!result.ok) return failed('The order was not placed', result.error);
    setOrderSettled(null);
    setBatchId(result.value.batchId);
  };

  /** A new order from scratch after one was created. */
  const startAnother = () => {
    setBatchId(null);
    setOrderSettled(null);
  };

  return {
    batchId,
    ordering,
    reviewingOrder,
    confirming,
    closeConfirmation,
    orderSettled,
    setOrderSettled,
    askToOrder,
    placeOrder,
    startAnother,
  };
}
