import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { MoveOrder } from '@renderer/screens/practice/MoveOrder';
import { installOrderDesk } from '@test/support/component/fake-order-desk';
import { order } from '@test/support/component/fixtures';

const NEW = order({ id: 'ord_1001', status: 'NEW' });
const DELIVERED = order({ id: 'ord_1002', status: 'DELIVERED' });

describe('MoveOrder: the practice card reads its orders and moves one through its hook', () => {
  it('offers the orders not at the end of the chain and moves the chosen one', async () => {
    const desk = installOrderDesk({
      'orders.list': () => ({ orders: [NEW, DELIVERED], total: 2, possibleDuplicateOf: {} }),
      'practice.advanceOrder': ({ orderId, to }) => order({ id: orderId, status: to }),
    });
    render(<MoveOrder disabled={false} />);
    const orderChoice = await screen.findByRole('option', { name: /ord_1001/ });
    expect(orderChoice).toBeTruthy();
    expect(screen.queryByRole('option', { name: /ord_1002/ })).toBeNull();
    await userEvent.selectOptions(screen.getByLabelText('Move to'), 'PROCESSING');
    await userEvent.click(screen.getByRole('button', { name: 'Move order' }));
    expect(desk.argsOf('practice.advanceOrder')).toEqual([
      { orderId: 'ord_1001', to: 'PROCESSING' },
    ]);
    expect((await screen.findByText(/Order ord_1001 is now/)).textContent).toContain('Processing');
  });
});
