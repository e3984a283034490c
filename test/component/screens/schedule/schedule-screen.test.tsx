import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Router } from 'wouter';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useGuardedHashLocation } from '@renderer/lib/navigation-guard';
import ScheduleScreen from '@renderer/screens/schedule/ScheduleScreen';
import SchedulesScreen from '@renderer/screens/schedule/SchedulesScreen';
import { useAppStore } from '@renderer/stores/app-store';
import { useOrdersStore } from '@renderer/stores/orders-store';
import { useToastStore } from '@renderer/stores/toast-store';
import { installOrderDesk, pass, refuse } from '@test/support/component/fake-order-desk';
import { order, packProduct, partnerSettings } from '@test/support/component/fixtures';

const LINE = {
  productId: 101,
  quantity: 60,
  packDescription: '1 capsule',
  price: '0.18',
  discountedPrice: '0.15',
  administration: { morning: 1, afternoon: 0, evening: 0, sleep: 1 },
  name: 'Magnesium Glycinate 120 mg',
  totalPrice: '9.00',
  external: false,
  imageUrl: null,
};
const ADA = order({ id: 'ord_1001', lineItems: [LINE] });
const GRACE = order({
  id: 'ord_1002',
  lineItems: [LINE],
  customer: { ...ADA.customer, sourceId: 'PAT-7', firstName: 'Grace', lastName: 'Hopper' },
});
const SETTINGS = partnerSettings();

function desk(over: Parameters<typeof installOrderDesk>[0] = {}) {
  return installOrderDesk({
    'orders.get': ({ orderId }) =>
      [ADA, GRACE].find((o) => o.id === orderId) ?? refuse('not-found', 'No such order.'),
    'settings.get': () => SETTINGS,
    'catalog.product': () => packProduct(),
    'schedule.printed': () => null,
    'schedule.savePdf': () => ({ saved: true }),
    ...over,
  });
}

function renderIn(node: React.ReactNode, hash: string) {
  window.history.replaceState(null, '', hash);
  return render(<Router hook={useGuardedHashLocation}>{node}</Router>);
}

afterEach(() => {
  act(() => useAppStore.setState({ transport: null }));
  act(() => useOrdersStore.setState({ selected: new Set() }));
});

describe('ScheduleScreen with its PrintActions', () => {
  it('shows the order’s sheet, the supply’s end for a start date, and records a print', async () => {
    const bridge = desk();
    const print = vi.spyOn(window, 'print').mockImplementation(() => undefined);
    renderIn(
      <ScheduleScreen source={{ kind: 'order', orderId: 'ord_1001' }} />,
      '#/orders/ord_1001/schedule',
    );
    expect(
      await screen.findByRole('heading', { name: 'Dosing schedule for Ada Lovelace' }),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to the order' }).getAttribute('href')).toBe(
      '#/orders/ord_1001',
    );
    const start = screen.getByLabelText('Start date');
    await userEvent.clear(start);
    await userEvent.type(start, '2026-12-01');
    expect(screen.getByText('The supply lasts until Dec 30, 2026.')).toBeTruthy();
    expect(await screen.findByText('Evergreen Clinic')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Print or save as PDF…' }));
    expect(print).toHaveBeenCalledOnce();
    expect(bridge.argsOf('schedule.printed')).toEqual([{ subjects: { orders: ['ord_1001'] } }]);
  });

  it('in the desktop app, saves a PDF named for the patient and the day', async () => {
    const bridge = desk();
    useAppStore.setState({ transport: 'electron' });
    renderIn(
      <ScheduleScreen source={{ kind: 'order', orderId: 'ord_1001' }} />,
      '#/orders/ord_1001/schedule',
    );
    const start = await screen.findByLabelText('Start date');
    await userEvent.clear(start);
    await userEvent.type(start, '2026-12-01');
    await userEvent.click(screen.getByRole('button', { name: 'Save as PDF…' }));
    await waitFor(() => expect(bridge.argsOf('schedule.savePdf')).toHaveLength(1));
    expect(bridge.argsOf('schedule.savePdf')[0]).toMatchObject({
      subjects: { orders: ['ord_1001'] },
    });
    expect(bridge.argsOf('schedule.savePdf')[0]!.fileName).toBe(
      'dosing-schedule-ada-lovelace-2026-12-01.pdf',
    );
    await waitFor(() =>
      expect(useToastStore.getState().toasts.map((t) => t.title)).toContain(
        'The schedule is saved as a PDF.',
      ),
    );
  });

  it('says when the order cannot be read, and when the address names no order', async () => {
    desk();
    const { unmount } = renderIn(
      <ScheduleScreen source={{ kind: 'order', orderId: 'ord_404' }} />,
      '#/orders/ord_404/schedule',
    );
    expect((await screen.findByRole('alert')).textContent).toContain(
      'The order could not be read.',
    );
    unmount();
    renderIn(
      <ScheduleScreen source={{ kind: 'order', orderId: '%E0%A4%A' }} />,
      '#/orders/x/schedule',
    );
    expect(screen.getByText('That address does not name an order.')).toBeTruthy();
  });
});

describe('SchedulesScreen', () => {
  it('shows one sheet for each order selected in the queue', async () => {
    desk();
    act(() => useOrdersStore.setState({ selected: new Set(['ord_1001', 'ord_1002']) }));
    renderIn(<SchedulesScreen />, '#/orders/schedules');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(
      'Dosing schedules for 2 orders',
    );
    await waitFor(() =>
      expect(
        screen
          .getAllByRole('article')
          .map((a) => within(a).getByText(/Lovelace|Hopper/).textContent),
      ).toEqual(['Ada Lovelace', 'Grace Hopper']),
    );
  });

  it('with no order selected, says how to select some', async () => {
    installOrderDesk({ 'settings.get': () => SETTINGS });
    renderIn(<SchedulesScreen />, '#/orders/schedules');
    await pass(0);
    expect(
      screen.getByText('No order is selected. Select orders in the queue, then Print schedules.'),
    ).toBeTruthy();
  });
});
