import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Router } from 'wouter';
import { describe, expect, it } from 'vitest';
import { PatientView } from '@shared/patient-views';
import { OrderReviewView } from '@shared/work-views';
import { useGuardedHashLocation } from '@renderer/lib/navigation-guard';
import PatientScreen from '@renderer/screens/patients/PatientScreen';
import { installOrderDesk } from '@test/support/component/fake-order-desk';

const PROTOCOL = '7d0f5a0e-3c4b-4e0b-9a55-2f1f3f6b8c11';
const BATCH = '0b6f2d4e-1c3a-4f5b-8d7e-9a0b1c2d3e4f';
const AT = Date.parse('2026-11-20T09:00:00.000Z');

const patient = PatientView.parse({
  sourceId: 'PAT-ADA-1',
  name: 'Ada Lovelace',
  person: null,
  otherNames: [],
  protocols: [
    {
      protocol: {
        localId: PROTOCOL,
        serverId: 'prot_1',
        customerName: 'Ada Lovelace',
        sourceId: 'PAT-ADA-1',
        email: null,
        syncState: 'synced',
        deleted: false,
        localUpdatedAt: AT,
        change: null,
      },
      daysSupply: 30,
      products: ['Magnesium Glycinate 120 mg'],
    },
  ],
  orders: [],
  outcome: {
    standing: { orders: 0, amount: '0.00' },
    cancelled: { orders: 0, amount: '0.00' },
    refused: 0,
  },
  supply: null,
});

const review = OrderReviewView.parse({
  items: [
    {
      localId: PROTOCOL,
      customerName: 'Ada Lovelace',
      sourceId: 'PAT-ADA-1',
      estimatedTotal: '32.99',
      detail: null,
      warnings: [],
      problems: [],
      refusals: [],
      repeats: [],
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
    daysSupply: 30,
    shippingMethod: 'STANDARD',
    orderType: 'ONE_TIME',
    lines: [{ productId: 1001, name: 'Magnesium Glycinate 120 mg', quantity: 2, external: false }],
  },
});

function renderPatient() {
  window.history.replaceState(null, '', '#/patients/PAT-ADA-1');
  return render(
    <Router hook={useGuardedHashLocation}>
      <Route path="/patients/:sourceId">
        {(params) => <PatientScreen sourceId={params.sourceId} />}
      </Route>
    </Router>,
  );
}

describe('ordering a protocol from the patient’s screen', () => {
  it('is one order, confirmed in Order now’s dialog on the same page, never the batch review', async () => {
    const desk = installOrderDesk({
      'patients.get': () => patient,
      'orders.review': () => review,
      'orders.create': () => ({ batchId: BATCH }),
      'batches.items': () => [
        {
          seq: 0,
          protocolLocalId: PROTOCOL,
          customerName: 'Ada Lovelace',
          sourceId: 'PAT-ADA-1',
          state: 'done',
          orderId: 'ord_2001',
          orderStatus: 'NEW',
          attempts: 1,
          message: null,
          held: [],
          possibleDuplicates: [],
        },
      ],
    });
    renderPatient();
    await userEvent.click(
      await screen.findByRole('button', {
        name: 'Order: protocol Magnesium Glycinate 120 mg, 30 days',
      }),
    );

    const dialog = await screen.findByRole('dialog', { name: 'Send 1 order?' });
    expect(desk.argsOf('orders.review')).toEqual([{ from: 'protocol', protocolLocalId: PROTOCOL }]);
    // Still the patient's page: nothing handed to the batch review.
    expect(window.location.hash).toBe('#/patients/PAT-ADA-1');
    expect(dialog.textContent).toContain('One order is created');
    expect(dialog.textContent).toContain('30 days, Standard shipping, one time');
    expect(dialog.textContent).not.toMatch(/batch/i);

    await userEvent.click(within(dialog).getByRole('button', { name: 'Send 1 order' }));
    expect(desk.argsOf('orders.create')).toEqual([{ from: 'protocol', protocolLocalId: PROTOCOL }]);
    const created = await screen.findByRole('link', { name: 'ord_2001' });
    expect(created.closest('[data-order]')?.getAttribute('data-order')).toBe('created');
    expect(window.location.hash).toBe('#/patients/PAT-ADA-1');
  });
});
