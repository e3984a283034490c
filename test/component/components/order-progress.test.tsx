import { act, render, screen } from '@testing-library/react';
import { Router } from 'wouter';
import { describe, expect, it, vi } from 'vitest';
import type { BatchItemView } from '@shared/work-views';
import { OrderProgress } from '@renderer/components/OrderProgress';
import { useToastStore } from '@renderer/stores/toast-store';
import { installOrderDesk } from '@test/support/component/fake-order-desk';

const BATCH = '3f2b8c1e-5d4a-4f6b-9e7c-1a2b3c4d5e6f';

/** The one item of a batch of one, in `state`. */
function item(state: BatchItemView['state'], over: Partial<BatchItemView> = {}): BatchItemView {
  return {
    seq: 0,
    protocolLocalId: null,
    customerName: 'Ada Lovelace',
    sourceId: 'PAT-ADA-1',
    state,
    orderId: null,
    orderStatus: null,
    attempts: 0,
    message: null,
    held: [],
    possibleDuplicates: [],
    ...over,
  };
}

describe('OrderProgress: one order followed until it is created or refused', () => {
  it('sending, then created: a link to the order, and onCreated told once', async () => {
    let now = item('sending');
    const desk = installOrderDesk({ 'batches.items': () => [now] });
    const onCreated = vi.fn();
    const onRejected = vi.fn();
    render(
      <Router>
        <OrderProgress batchId={BATCH} onCreated={onCreated} onRejected={onRejected} />
      </Router>,
    );
    expect(await screen.findByText(/Sending the order/)).toBeTruthy();
    expect(desk.argsOf('batches.items')[0]).toEqual({ batchId: BATCH });
    now = item('done', { orderId: 'ord_2001', orderStatus: 'NEW' });
    await desk.emit('changed', { subjects: ['batches', 'jobs', 'orders'] });
    expect((await screen.findByRole('link', { name: 'ord_2001' })).getAttribute('href')).toBe(
      '/orders/ord_2001',
    );
    await desk.emit('changed', { subjects: ['batches', 'jobs', 'orders'] });
    expect(onCreated).toHaveBeenCalledTimes(1);
    expect(onRejected).not.toHaveBeenCalled();
  });

  it('created: its toast says a sent order cannot be undone, and cancels it while NEW', async () => {
    const desk = installOrderDesk({
      'batches.items': () => [item('done', { orderId: 'ord_2002', orderStatus: 'NEW' })],
      'orders.cancel': () => ({
        ok: false,
        reason: 'not-cancellable',
        message: 'It is already being processed.',
        order: null,
      }),
    });
    useToastStore.setState(useToastStore.getInitialState(), true);
    render(
      <Router>
        <OrderProgress batchId={BATCH} onCreated={() => undefined} onRejected={() => undefined} />
      </Router>,
    );
    await screen.findByRole('link', { name: 'ord_2002' });
    const [told] = useToastStore.getState().toasts;
    expect(told).toMatchObject({
      title: 'Order ord_2002 created.',
      detail: 'A sent order cannot be undone; while it is New it can be cancelled.',
      action: { label: 'Cancel order' },
    });
    await act(async () => told!.action!.run());
    await vi.waitFor(() => expect(desk.argsOf('orders.cancel')).toEqual([{ orderId: 'ord_2002' }]));
    await vi.waitFor(() =>
      expect(useToastStore.getState().toasts.at(-1)).toMatchObject({
        kind: 'error',
        title: 'Order ord_2002 was not cancelled.',
      }),
    );
  });

  it('refused: the reason in words, and onRejected told with main’s message', async () => {
    const message = 'The server refused it: Email: must be an email address';
    installOrderDesk({ 'batches.items': () => [item('rejected', { message })] });
    const onRejected = vi.fn();
    render(
      <Router>
        <OrderProgress batchId={BATCH} onCreated={() => undefined} onRejected={onRejected} />
      </Router>,
    );
    const outcome = await screen.findByText(/Fix it and place the order again/);
    expect(outcome.textContent).toBe(
      'The reason is shown on the field below. Fix it and place the order again: nothing was ordered.',
    );
    expect(onRejected).toHaveBeenCalledWith(message);
  });
});
