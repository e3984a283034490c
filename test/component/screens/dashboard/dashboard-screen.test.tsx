import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Router } from 'wouter';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { DashboardView, OrderPeriod } from '@shared/dashboard-views';
import { useGuardedHashLocation } from '@renderer/lib/navigation-guard';
import DashboardScreen from '@renderer/screens/dashboard/DashboardScreen';
import { installOrderDesk, pass } from '@test/support/component/fake-order-desk';

/** uPlot draws on a canvas, which jsdom has not: the charts it is given are recorded instead. */
const drawn = vi.hoisted(() => [] as { series: (string | undefined)[]; data: number[][] }[]);
vi.mock('uplot', () => {
  class FakePlot {
    static paths = { bars: () => () => null };
    over = document.createElement('div');
    cursor = { idx: null };
    data: number[][];
    drawing: { series: (string | undefined)[]; data: number[][] };
    constructor(opts: { series: { label?: string }[] }, data: number[][], host: HTMLElement) {
      this.data = data;
      this.drawing = { series: opts.series.map((s) => s.label), data };
      drawn.push(this.drawing);
      host.append(this.over);
    }
    /** New figures for the same chart: what it shows now. */
    setData(data: number[][]) {
      this.data = data;
      this.drawing.data = data;
    }
    setSize() {}
    destroy() {
      this.over.remove();
    }
  }
  return { default: FakePlot };
});

const month = (start: string, standing: number, cancelled: number): OrderPeriod => ({
  start,
  byStatus: [
    ...(standing > 0
      ? [{ status: 'NEW' as const, orders: standing, amount: `${standing * 10}.00` }]
      : []),
    ...(cancelled > 0
      ? [{ status: 'CANCELLED' as const, orders: cancelled, amount: `${cancelled * 10}.00` }]
      : []),
  ],
  standing: { orders: standing, amount: `${standing * 10}.00` },
  cancelled: { orders: cancelled, amount: `${cancelled * 10}.00` },
});

const MONTHS = Array.from({ length: 12 }, (_, i) =>
  month(`${i < 1 ? 2025 : 2026}-${String(((i + 11) % 12) + 1).padStart(2, '0')}-01`, i, 0),
);

function view(cancelledThisMonth: number): DashboardView {
  return {
    asOf: '2026-11-20T15:00:00.000Z',
    months: [...MONTHS.slice(0, 11), month('2026-11-01', 11, cancelledThisMonth)],
    weeks: [month('2026-11-16', 4, cancelledThisMonth)],
    topByQuantity: [
      { productId: 1001, name: 'Vitamin D3', quantity: 40, amount: '120.00' },
      { productId: 1035, name: null, quantity: 12, amount: '300.00' },
    ],
    topBySpend: [
      { productId: 1035, name: null, quantity: 12, amount: '300.00' },
      { productId: 1001, name: 'Vitamin D3', quantity: 40, amount: '120.00' },
    ],
    refills: {
      overdue: 2,
      days: [
        { day: '2026-11-25', refills: 3 },
        { day: '2026-12-10', refills: 1 },
      ],
    },
    batches: {
      batches: 2,
      created: 7,
      refused: 1,
      possibleDuplicates: 1,
      days: [{ day: '2026-11-19', batches: 2, created: 7, refused: 1, possibleDuplicates: 1 }],
    },
  };
}

function renderDashboard() {
  window.history.replaceState(null, '', '#/dashboard');
  return render(
    <Router hook={useGuardedHashLocation}>
      <Route path="/dashboard">
        <DashboardScreen />
      </Route>
      <Route path="/refills/:day">{(p) => <p>Refills of {p.day}</p>}</Route>
    </Router>,
  );
}

const cells = (table: HTMLElement, figure: string) =>
  [...table.querySelectorAll(`[data-figure="${figure}"]`)].map((c) => c.textContent);

beforeEach(() => {
  drawn.length = 0;
});

describe('Dashboard', () => {
  it('shows every figure in a table behind its chart, and follows a change', async () => {
    let cancelled = 1;
    const desk = installOrderDesk({ 'dashboard.summary': () => view(cancelled) });
    renderDashboard();
    const counts = await screen.findByRole('table', { name: /^Orders per month/ });
    const rows = within(counts).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(12);
    expect(within(rows[11]!).getByRole('rowheader').textContent).toBe('Nov 2026');
    expect(cells(counts, 'orders')).toEqual(MONTHS.map((_, i) => String(i)));
    expect(cells(counts, 'cancelled').at(-1)).toBe('1');
    const totals = screen.getByRole('table', { name: /^Total per month/ });
    expect(cells(totals, 'total').at(-1)).toBe('$110.00');
    expect(cells(totals, 'cancelled-total').at(-1)).toBe('$10.00');
    // The chart of the orders: standing ones by status, stacked; cancelled ones apart, a line.
    // Made in an effect, which may run after the table is in the page.
    const orders = await waitFor(() => {
      const chart = drawn.find((c) => c.series.includes('New'));
      expect(chart).toBeDefined();
      return chart!;
    });
    expect(orders.series).toEqual([undefined, 'New', 'Cancelled']);
    expect(orders.data[2]!.at(-1)).toBe(1);

    const quantity = screen.getByRole('table', { name: /^Top 10 products by quantity/ });
    expect(
      within(quantity)
        .getAllByRole('rowheader')
        .map((c) => c.textContent),
    ).toEqual(['Vitamin D3', 'Product 1035']);
    expect(cells(quantity, 'spend')).toEqual(['$120.00', '$300.00']);
    expect(document.querySelector('[data-figure="batches"]')?.textContent).toBe('2');
    expect(document.querySelector('[data-figure="refused"]')?.textContent).toBe('1');
    expect(screen.getByRole('link', { name: '2 already ran out' }).getAttribute('href')).toBe(
      '#/refills',
    );

    // A cancellation: main says orders changed, and the figures are read again.
    cancelled = 2;
    await desk.emit('changed', { subjects: ['orders'] });
    await pass(60);
    expect(
      cells(screen.getByRole('table', { name: /^Orders per month/ }), 'cancelled').at(-1),
    ).toBe('2');
    expect(desk.argsOf('dashboard.summary').length).toBeGreaterThanOrEqual(2);
    // The same chart is given the new figures, not made again.
    await waitFor(() => expect(orders.data[2]!.at(-1)).toBe(2));
    expect(drawn.filter((c) => c.series.includes('New'))).toHaveLength(1);
  });

  it('switches to weeks, shows a table in place of its chart, and opens a refill day by keyboard', async () => {
    const user = userEvent.setup();
    installOrderDesk({ 'dashboard.summary': () => view(0) });
    renderDashboard();
    await screen.findByRole('table', { name: /^Orders per month/ });
    await user.click(screen.getByRole('radio', { name: 'Week' }));
    const weeks = screen.getByRole('table', { name: /^Orders per week/ });
    expect(within(weeks).getByRole('rowheader').textContent).toBe('Week of Nov 16');

    const toggle = screen.getAllByRole('button', { name: 'Show as table' })[0]!;
    await user.click(toggle);
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
    expect(weeks.closest('.dashboard-table')).not.toBeNull();

    const day = screen.getByRole('link', { name: 'Wednesday, November 25, 2026' });
    day.focus();
    await user.keyboard('{Enter}');
    expect(await screen.findByText('Refills of 2026-11-25')).toBeTruthy();
  });
});
