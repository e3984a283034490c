import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { PatientOrderView, PatientProtocolView } from '@shared/patient-views';
import { PatientOrders } from '@renderer/screens/patients/PatientOrders';
import { installOrderDesk } from '@test/support/component/fake-order-desk';

const PROTOCOL = '7d0f5a0e-3c4b-4e0b-9a55-2f1f3f6b8c11';
const GONE = '8e1f5a0e-3c4b-4e0b-9a55-2f1f3f6b8c12';

const protocol = PatientProtocolView.parse({
  protocol: {
    localId: PROTOCOL,
    serverId: 'prot_1',
    customerName: 'Ada Lovelace',
    sourceId: 'PAT-ADA-1',
    email: null,
    syncState: 'synced',
    deleted: false,
    localUpdatedAt: Date.parse('2026-11-20T09:00:00.000Z'),
    change: null,
  },
  daysSupply: 30,
  products: ['Magnesium Glycinate 120 mg'],
});

const orderRow = (over: Partial<PatientOrderView>): PatientOrderView =>
  PatientOrderView.parse({
    id: 'ord_2001',
    status: 'SHIPPED',
    createdAt: '2026-11-20T09:30:00.000Z',
    daysSupply: 30,
    totalPrice: '26.35',
    products: ['Magnesium Glycinate 120 mg'],
    tracking: {
      carrier: 'UPS',
      trackingNumber: '1Z999',
      trackingUrl: 'https://track.example/1Z999',
    },
    protocolLocalId: PROTOCOL,
    ...over,
  });

const ORDERS = [
  orderRow({}),
  orderRow({
    id: 'ord_1001',
    status: 'NEW',
    tracking: null,
    totalPrice: null,
    protocolLocalId: GONE,
  }),
  orderRow({ id: 'ord_0900', status: 'DELIVERED', tracking: null, protocolLocalId: null }),
];

describe('PatientOrders', () => {
  it('shows each order with its status, tracking, protocol and total', () => {
    render(
      <PatientOrders
        orders={ORDERS}
        protocols={[protocol]}
        reviewingId={null}
        onReorder={vi.fn()}
      />,
    );
    const table = screen.getByRole('table', { name: "The patient's orders, newest first" });
    const [shipped, fresh, old] = within(table).getAllByRole('row').slice(1);
    expect(within(shipped!).getByRole('link', { name: 'ord_2001' }).getAttribute('href')).toBe(
      '/orders/ord_2001',
    );
    expect(shipped!.textContent).toContain('1Z999');
    expect(shipped!.textContent).toContain('$26.35');
    expect(
      within(shipped!)
        .getByRole('link', { name: 'Magnesium Glycinate 120 mg, 30 days' })
        .getAttribute('href'),
    ).toBe(`/protocols/${PROTOCOL}`);
    expect(fresh!.textContent).toContain('No tracking yet');
    expect(within(fresh!).getByRole('link', { name: 'Its protocol (deleted)' })).toBeTruthy();
    expect(fresh!.textContent).toContain('–');
    expect(old!.textContent).toContain('None here');
  });

  it('Order again names the order it repeats; the tracking page opens outside the app', async () => {
    const desk = installOrderDesk({ 'app.openExternal': () => null });
    const onReorder = vi.fn();
    render(
      <PatientOrders
        orders={ORDERS}
        protocols={[protocol]}
        reviewingId="ord_1001"
        onReorder={onReorder}
      />,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Order again: order ord_0900' }));
    expect(onReorder).toHaveBeenCalledWith('ord_0900');
    expect(
      screen.getByRole('button', { name: 'Order again: order ord_1001' }).getAttribute('aria-busy'),
    ).toBe('true');
    await userEvent.click(screen.getByRole('button', { name: /UPS tracking page/ }));
    await waitFor(() =>
      expect(desk.argsOf('app.openExternal')).toEqual([{ url: 'https://track.example/1Z999' }]),
    );
  });

  it('says when the patient has no order yet', () => {
    render(<PatientOrders orders={[]} protocols={[]} reviewingId={null} onReorder={vi.fn()} />);
    expect(screen.getByText('No order for this patient yet.')).toBeTruthy();
  });
});
