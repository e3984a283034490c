import { render, screen } from '@testing-library/react';
import { useEffect } from 'react';
import { describe, expect, it } from 'vitest';
import type { AppOrder } from '@shared/api';
import { call } from '@renderer/lib/ipc';
import { rowAt } from '@renderer/lib/paged-query';
import { useLiveQuery, usePagedQuery } from '@renderer/lib/use-query';
import { installOrderDesk, later, pass } from '@test/support/component/fake-order-desk';
import { order, packProduct } from '@test/support/component/fixtures';

/** One order's status, as a screen would read it. */
function OrderStatusLine({ orderId }: { orderId: string }) {
  const q = useLiveQuery((read) => read('orders.get', { orderId }), [orderId]);
  if (q.status === 'loading') return <p>Loading…</p>;
  if (q.status === 'failed') return <p role="alert">{q.error.message}</p>;
  return <p>{`${q.data.id}: ${q.data.status}`}</p>;
}

/** The REREAD_MS pacing and then some: long enough for a re-read that was going to happen. */
const QUIET_MS = 200;

describe('useLiveQuery', () => {
  it('shows loading, then the answer', async () => {
    const answer = later<AppOrder>();
    installOrderDesk({ 'orders.get': () => answer.promise });
    render(<OrderStatusLine orderId="ord_1001" />);
    expect(screen.getByText('Loading…')).toBeTruthy();
    await answer.resolve(order());
    expect(screen.getByText('ord_1001: NEW')).toBeTruthy();
  });

  it('reads again after a change of its subject, and not after a change of another', async () => {
    let status: AppOrder['status'] = 'NEW';
    const desk = installOrderDesk({ 'orders.get': () => order({ status }) });
    render(<OrderStatusLine orderId="ord_1001" />);
    await screen.findByText('ord_1001: NEW');

    status = 'SHIPPED';
    await desk.emit('changed', { subjects: ['protocols', 'catalog'] });
    await pass(QUIET_MS);
    expect(desk.argsOf('orders.get')).toHaveLength(1);
    expect(screen.getByText('ord_1001: NEW')).toBeTruthy();

    await desk.emit('changed', { subjects: ['batches', 'orders'] });
    await screen.findByText('ord_1001: SHIPPED');
    expect(desk.argsOf('orders.get')).toHaveLength(2);
  });

  it('listens to the subjects of every channel it read, and reads what it calls once', async () => {
    const desk = installOrderDesk({
      'orders.get': () => order(),
      'catalog.product': () => packProduct({ id: 1001 }),
    });
    function Both() {
      const q = useLiveQuery(async (read) => {
        const [o] = await Promise.all([
          read('orders.get', { orderId: 'ord_1' }),
          read('catalog.product', { id: 1001 }),
        ]);
        return o;
      }, []);
      return <p>{q.data ? 'both read' : 'reading'}</p>;
    }
    function Once() {
      const q = useLiveQuery(() => call('orders.get', { orderId: 'ord_once' }), []);
      return <p>{q.data ? 'once read' : 'reading once'}</p>;
    }
    render(
      <>
        <Both />
        <Once />
      </>,
    );
    await screen.findByText('both read');
    await screen.findByText('once read');
    await desk.emit('changed', { subjects: ['catalog'] });
    await pass(QUIET_MS);
    expect(desk.argsOf('catalog.product')).toHaveLength(2);
    await desk.emit('changed', { subjects: ['orders'] });
    await pass(QUIET_MS);
    // Both's second read of orders.get, and none more of the one read with call.
    expect(desk.argsOf('orders.get')).toEqual([
      { orderId: 'ord_1' },
      { orderId: 'ord_once' },
      { orderId: 'ord_1' },
      { orderId: 'ord_1' },
    ]);
  });

  it('drops the answer to the old arguments when new ones come, however late it arrives', async () => {
    const answers = new Map([
      ['ord_1', later<AppOrder>()],
      ['ord_2', later<AppOrder>()],
    ]);
    const desk = installOrderDesk({ 'orders.get': ({ orderId }) => answers.get(orderId)!.promise });
    const { rerender } = render(<OrderStatusLine orderId="ord_1" />);
    await pass(0); // the first read is sent on the next task
    rerender(<OrderStatusLine orderId="ord_2" />);
    await pass(0);
    expect(desk.argsOf('orders.get')).toEqual([{ orderId: 'ord_1' }, { orderId: 'ord_2' }]);

    await answers.get('ord_2')!.resolve(order({ id: 'ord_2', status: 'PROCESSING' }));
    expect(screen.getByText('ord_2: PROCESSING')).toBeTruthy();
    await answers.get('ord_1')!.resolve(order({ id: 'ord_1', status: 'CANCELLED' }));
    expect(screen.queryByText('ord_1: CANCELLED')).toBeNull();
    expect(screen.getByText('ord_2: PROCESSING')).toBeTruthy();
  });

  it('forgets the old answer at once: new arguments show loading until they are answered', async () => {
    const second = later<AppOrder>();
    installOrderDesk({
      'orders.get': ({ orderId }) =>
        orderId === 'ord_1' ? order({ id: 'ord_1' }) : second.promise,
    });
    const { rerender } = render(<OrderStatusLine orderId="ord_1" />);
    await screen.findByText('ord_1: NEW');
    rerender(<OrderStatusLine orderId="ord_2" />);
    expect(screen.getByText('Loading…')).toBeTruthy();
    await second.resolve(order({ id: 'ord_2' }));
    expect(screen.getByText('ord_2: NEW')).toBeTruthy();
  });
});

const PAGE = 2;

/** The orders in rows first..last of a paged list, as a virtualised list reports its view. */
function OrderRows({ first, last }: { first: number; last: number }) {
  const list = usePagedQuery<AppOrder>(
    async (read, index) => {
      const page = await read('orders.list', { limit: PAGE, offset: index * PAGE });
      return page.ok
        ? { ok: true, value: { rows: page.value.orders, total: page.value.total, next: null } }
        : page;
    },
    [],
    { pageSize: PAGE, randomAccess: true },
  );
  const { setView } = list;
  useEffect(() => setView(first, last), [first, last, setView]);
  const rows = [];
  for (let i = first; i <= last; i++) {
    const row = rowAt(list.state, PAGE, i);
    rows.push(<li key={i}>{row ? row.id : `row ${i} loading`}</li>);
  }
  return <ul aria-label="Orders">{rows}</ul>;
}

describe('usePagedQuery', () => {
  /** Ten orders, ord_0 … ord_9, answered a page at a time as orders.list pages them. */
  const tenOrders = () =>
    installOrderDesk({
      'orders.list': ({ offset, limit }) => ({
        orders: Array.from({ length: Math.max(0, Math.min(limit, 10 - offset)) }, (_, i) =>
          order({ id: `ord_${offset + i}` }),
        ),
        total: 10,
        possibleDuplicateOf: {},
      }),
    });

  it('reads the pages in view, and only those', async () => {
    const desk = tenOrders();
    const { rerender } = render(<OrderRows first={0} last={1} />);
    await screen.findByText('ord_1');
    expect(desk.argsOf('orders.list').map((a) => a.offset)).toEqual([0]);

    // Scrolled to rows 4-7: pages 2 and 3 are read; page 1, passed over, is not.
    rerender(<OrderRows first={4} last={7} />);
    await screen.findByText('ord_7');
    expect(screen.getByText('ord_4')).toBeTruthy();
    const offsets = desk.argsOf('orders.list').map((a) => a.offset);
    expect(offsets.slice(1).sort()).toEqual([4, 6]);

    // A change re-reads what is in view, not the page scrolled away from.
    await desk.emit('changed', { subjects: ['orders'] });
    await pass(QUIET_MS);
    expect(
      desk
        .argsOf('orders.list')
        .map((a) => a.offset)
        .slice(3)
        .sort(),
    ).toEqual([4, 6]);
  });
});
