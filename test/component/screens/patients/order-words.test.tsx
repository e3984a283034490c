import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ProtocolRowView, ProtocolSummaryView } from '@shared/protocol-views';
import { PatientProtocolView } from '@shared/patient-views';
import { formatDate } from '@renderer/lib/dates';
import { PatientProtocols } from '@renderer/screens/patients/PatientProtocols';
import { ProtocolRow } from '@renderer/screens/protocols/ProtocolRow';

const summary = ProtocolSummaryView.parse({
  localId: '7d0f5a0e-3c4b-4e0b-9a55-2f1f3f6b8c11',
  serverId: 'prot_1',
  customerName: 'Ada Lovelace',
  sourceId: 'PAT-ADA-1',
  email: null,
  syncState: 'synced',
  deleted: false,
  localUpdatedAt: Date.parse('2026-11-20T09:00:00.000Z'),
  change: null,
});
const CANCELLED_AT = Date.parse('2026-11-28T15:00:00.000Z');

function renderRow(columns: Partial<ProtocolRowView['columns']>) {
  const p = ProtocolRowView.parse({
    ...summary,
    columns: {
      products: ['Magnesium Glycinate 120 mg'],
      daysSupply: 30,
      shipping: 'Standard',
      lastOrder: null,
      cancelledAt: null,
      ...columns,
    },
  });
  const noop = () => undefined;
  return render(
    <div role="grid" aria-rowcount={1}>
      <ProtocolRow
        p={p}
        index={0}
        total={1}
        start={0}
        height={62}
        selected={false}
        tabbable
        onToggle={noop}
        onLinkClick={noop}
      />
    </div>,
  );
}

describe('what the screens say of a patient’s orders', () => {
  it('a protocol whose only order was cancelled shows that order, never "Never ordered"', () => {
    const { container } = renderRow({ cancelledAt: CANCELLED_AT });
    const cell = container.querySelector('.protocol-cell-lastOrder') ?? container;
    expect(cell.textContent).toContain(formatDate(CANCELLED_AT));
    expect(cell.textContent).toContain('Cancelled');
    expect(container.textContent).not.toContain('Never ordered');
  });

  it('a protocol of a patient with no order at all says "Never ordered"', () => {
    const { container } = renderRow({});
    expect(container.textContent).toContain('Never ordered');
  });

  it('offers "Order" for a patient never ordered for, "Order again" once an order exists', () => {
    const row = PatientProtocolView.parse({
      protocol: summary,
      daysSupply: 30,
      products: ['Magnesium Glycinate 120 mg'],
    });
    const first = render(<PatientProtocols protocols={[row]} ordered={false} onOrder={() => {}} />);
    const button = within(first.container).getByRole('button', {
      name: 'Order: protocol Magnesium Glycinate 120 mg, 30 days',
    });
    expect(button.textContent?.trim()).toBe('Order');
    first.unmount();
    render(<PatientProtocols protocols={[row]} ordered onOrder={() => {}} />);
    expect(
      screen
        .getByRole('button', { name: 'Order again: protocol Magnesium Glycinate 120 mg, 30 days' })
        .textContent?.trim(),
    ).toBe('Order again');
  });
});
