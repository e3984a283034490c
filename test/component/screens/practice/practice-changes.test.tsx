import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ProtocolRowView } from '@shared/protocol-views';
import { AnotherDesk } from '@renderer/screens/practice/AnotherDesk';
import { ProductStatusControl } from '@renderer/screens/practice/ProductStatusControl';
import { installOrderDesk } from '@test/support/component/fake-order-desk';
import { packProduct } from '@test/support/component/fixtures';

const row = (n: number, name: string, serverId: string | null): ProtocolRowView =>
  ProtocolRowView.parse({
    localId: `00000000-0000-4000-8000-00000000000${n}`,
    serverId,
    customerName: name,
    sourceId: `PAT-${n}`,
    email: null,
    syncState: serverId ? 'synced' : 'pending',
    deleted: false,
    localUpdatedAt: Date.parse('2026-11-20T09:00:00.000Z'),
    change: null,
    columns: {
      products: ['Magnesium Glycinate 120 mg'],
      daysSupply: 30,
      shipping: 'Standard',
      lastOrder: null,
      cancelledAt: null,
    },
  });

describe('AnotherDesk', () => {
  it('offers the protocols the server has, and changes the chosen one there', async () => {
    const desk = installOrderDesk({
      'protocols.list': () => ({
        items: [
          row(1, 'Ada Lovelace', 'prot_1'),
          row(2, 'Grace Hopper', 'prot_2'),
          row(3, 'Alan Turing', null),
        ],
        nextCursor: null,
      }),
      'practice.changeProtocol': ({ protocolId }) => ({ protocolId, shippingMethod: 'EXPRESS' }),
    });
    render(<AnotherDesk />);
    await screen.findByRole('option', { name: 'Grace Hopper (PAT-2)' });
    // A protocol not yet on the server cannot be changed there.
    expect(screen.queryByRole('option', { name: /Alan Turing/ })).toBeNull();
    await userEvent.selectOptions(screen.getByLabelText('Protocol'), 'Grace Hopper (PAT-2)');
    await userEvent.click(screen.getByRole('button', { name: 'Change it on the server' }));
    expect(desk.argsOf('practice.changeProtocol')).toEqual([{ protocolId: 'prot_2' }]);
    expect(
      await screen.findByText(
        "Another desk changed Grace Hopper's protocol on the server: shipping is now Express.",
      ),
    ).toBeTruthy();
  });

  it('with no protocol on the server, has nothing to submit', async () => {
    installOrderDesk({
      'protocols.list': () => ({ items: [row(3, 'Alan Turing', null)], nextCursor: null }),
    });
    render(<AnotherDesk />);
    expect(
      await screen.findByRole('option', { name: 'No protocol on the server yet' }),
    ).toBeTruthy();
    expect(
      (screen.getByRole('button', { name: 'Change it on the server' }) as HTMLButtonElement)
        .disabled,
    ).toBe(true);
  });
});

describe('ProductStatusControl', () => {
  it('gives the chosen product the chosen status at the partner', async () => {
    const desk = installOrderDesk({
      'catalog.products': () => ({
        products: [packProduct(), packProduct({ id: 102, name: 'Omega-3', status: 'BACKORDERED' })],
        total: 2,
      }),
      'practice.setProductStatus': ({ productId, status }) => ({
        productId,
        name: 'Omega-3',
        status,
      }),
    });
    render(<ProductStatusControl />);
    await userEvent.selectOptions(
      screen.getByLabelText('Product'),
      await screen.findByRole('option', { name: 'Omega-3 (Backordered)' }),
    );
    await userEvent.selectOptions(screen.getByLabelText('New status'), 'ACTIVE');
    await userEvent.click(screen.getByRole('button', { name: 'Change the status' }));
    await waitFor(() =>
      expect(desk.argsOf('practice.setProductStatus')).toEqual([
        { productId: 102, status: 'ACTIVE' },
      ]),
    );
    expect(await screen.findByText('Omega-3 is now Active at the partner.')).toBeTruthy();
  });
});
