import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ConnectionView } from '@shared/ipc';
import { OrderReviewView } from '@shared/work-views';
import { ConfirmOneOrder, ConfirmSubmit } from '@renderer/components/ConfirmSubmit';
import { installOrderDesk } from '@test/support/component/fake-order-desk';

const connection = (kind: 'embedded' | 'production', label: string) =>
  ConnectionView.parse({
    id: `conn-${kind}`,
    kind,
    label,
    baseUrl: 'https://api.partner.example/v1',
    authUrl: 'https://auth.partner.example',
    clientId: 'clinic-desk',
    isActive: true,
  });

const batch = {
  open: true,
  count: 3,
  total: '98.97',
  totalUnknown: null,
  exact: false,
  leftOut: 1,
  busy: false,
};

/** Order now's review of one order that repeats an order the patient already has. */
const review = OrderReviewView.parse({
  items: [
    {
      localId: '7d0f5a0e-3c4b-4e0b-9a55-2f1f3f6b8c11',
      customerName: 'Ada Lovelace',
      sourceId: 'PAT-ADA-1',
      estimatedTotal: '32.99',
      detail: null,
      warnings: ['Vitamin D3 is backordered: it ships when it is back in stock.'],
      problems: [],
      refusals: [],
      repeats: [{ orderId: 'ord_1001', createdAt: '2026-11-20T09:30:00.000Z', status: 'SHIPPED' }],
      sameAs: null,
      refill: null,
    },
  ],
  estimatedTotal: '32.99',
  totalUnknown: null,
  exact: true,
  duplicateCheck: { checked: true, message: null },
  order: {
    customerName: 'Ada Lovelace',
    sourceId: 'PAT-ADA-1',
    daysSupply: 90,
    shippingMethod: 'EXPRESS',
    orderType: 'ONE_TIME',
    lines: [
      { productId: 101, name: 'Magnesium Glycinate 120 mg', quantity: 2, external: false },
      { productId: 305, name: 'Whey Protein', quantity: 1, external: true },
    ],
  },
});

describe('ConfirmSubmit and ConfirmOrderDetails: "Send these orders?"', () => {
  it('a batch on a test server: says what is sent where, and sends or cancels', async () => {
    installOrderDesk();
    const onConfirm = vi.fn();
    const onCancel = vi.fn();
    render(
      <ConfirmSubmit
        {...batch}
        connection={connection('embedded', 'Local sandbox')}
        onConfirm={onConfirm}
        onCancel={onCancel}
      />,
    );
    const dialog = screen.getByRole('dialog', { name: 'Send 3 orders?' });
    expect(dialog.textContent).toContain(
      '3 orders are created on Local sandbox, one per protocol, for an estimated $98.97.',
    );
    expect(dialog.textContent).toContain('1 protocol left out of the batch will not be sent.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalledTimes(1);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send 3 orders' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });

  it('production: the number of orders must be typed before they are sent', async () => {
    installOrderDesk();
    const onConfirm = vi.fn();
    render(
      <ConfirmSubmit
        {...batch}
        connection={connection('production', 'Clinic production')}
        onConfirm={onConfirm}
        onCancel={() => undefined}
      />,
    );
    const dialog = screen.getByRole('alertdialog', { name: 'Send 3 orders to production?' });
    const typed = within(dialog).getByLabelText('Type 3 to confirm');
    const send = within(dialog).getByRole('button', { name: 'Send 3 orders to production' });
    await userEvent.click(send);
    expect(onConfirm).not.toHaveBeenCalled();
    expect(typed.getAttribute('aria-invalid')).toBe('true');
    expect(dialog.textContent).toContain('Type 3, the number of orders, to send them');
    await userEvent.type(typed, '2{Enter}');
    expect(onConfirm).not.toHaveBeenCalled();
    await userEvent.clear(typed);
    await userEvent.type(typed, '3{Enter}');
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });

  it('one order (ConfirmOneOrder): its details, warnings and the order it repeats', async () => {
    installOrderDesk();
    const onConfirm = vi.fn();
    render(
      <ConfirmOneOrder
        review={review}
        open
        connection={connection('embedded', 'Local sandbox')}
        busy={false}
        onConfirm={onConfirm}
        onCancel={() => undefined}
      />,
    );
    const dialog = screen.getByRole('dialog', { name: 'Send 1 order?' });
    expect(dialog.textContent).toContain(
      'One order is created on Local sandbox, for a total of $32.99.',
    );
    const facts = [...dialog.querySelectorAll('dt')].map((dt) => [
      dt.textContent,
      dt.nextElementSibling?.textContent,
    ]);
    expect(facts).toEqual([
      ['Patient', 'Ada LovelacePAT-ADA-1'],
      ['Supply and shipping', '90 days, Express shipping, one time'],
      ['Products', 'Magnesium Glycinate 120 mg: 2 pills a dayWhey Protein: 1 per 30 days'],
      ['Total', '$32.99'],
    ]);
    expect(within(dialog).getByText(/Vitamin D3 is backordered/).textContent).toBe(
      'Warning: Vitamin D3 is backordered: it ships when it is back in stock.',
    );
    const repeats = within(dialog).getByRole('list', { name: 'Orders the patient already has' });
    expect(within(repeats).getByRole('link', { name: /ord_1001/ })).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Order again anyway' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });

  it('an unknown total: says why, and the confirmation names no price', () => {
    installOrderDesk();
    const why = "The total is not known: the partner's discount was never read.";
    render(
      <ConfirmSubmit
        {...batch}
        total={null}
        totalUnknown={why}
        connection={null}
        onConfirm={() => undefined}
        onCancel={() => undefined}
      />,
    );
    const dialog = screen.getByRole('dialog', { name: 'Send 3 orders?' });
    expect(dialog.textContent).toContain('3 orders are created on the server, one per protocol.');
    expect(screen.getByTestId('confirm-total-unknown').textContent).toBe(why);
  });
});
