import { useRoute } from 'wouter';
import { Empty } from '@renderer/components/States';
import '@renderer/styles/orders.css';
import { OrderDetail } from './OrderDetail';
import { OrderFilters, QueueSummary } from './OrderFilters';
import { OrderQueue } from './OrderQueue';
import { OrderSelectionBar } from './OrderSelectionBar';
import { orderIdOf } from '@renderer/lib/order-format';
import { useOrderCounts, useOrderQueue } from './use-order-queue';

/** The order queue (routes under /orders) with the selected order's detail beside it. */
export default function OrdersScreen() {
  const [onOrder, params] = useRoute<{ orderId: string }>('/:orderId');
  const raw = onOrder ? params.orderId : null;
  const orderId = raw !== null ? orderIdOf(raw) : null;
  const queue = useOrderQueue();
  const counts = useOrderCounts();
  return (
    <div className="screen screen-wide orders-screen">
      <div className="screen-head">
        <h1>Orders</h1>
        <OrderSelectionBar />
      </div>
      <div className="master-detail order-layout">
        <section className="master card" aria-labelledby="orders-heading">
          <h2 id="orders-heading" className="visually-hidden">
            Order queue
          </h2>
          <OrderFilters counts={counts.data} />
          <QueueSummary list={queue.state} />
          <OrderQueue list={queue} selectedId={orderId} />
        </section>
        <section className="detail card" aria-label="Order details" tabIndex={0}>
          {orderId !== null ? (
            <OrderDetail orderId={orderId} />
          ) : raw !== null ? (
            <Empty title="That address does not name an order." />
          ) : (
            <Empty title="Select an order to see its line items, totals, status timeline and tracking." />
          )}
        </section>
      </div>
    </div>
  );
}
