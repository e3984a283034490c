import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Router } from 'wouter';
import { describe, expect, it, vi } from 'vitest';
import { EditorActions } from '@renderer/screens/editor/EditorActions';
import { EditorHeadActions } from '@renderer/screens/editor/EditorHeadActions';
import { installOrderDesk } from '@test/support/component/fake-order-desk';
import { order, savedProtocol } from '@test/support/component/fixtures';

/** The buttons of a saved protocol at rest: nothing changed, nothing ordered. */
const atRest = {
  mode: 'edit' as const,
  orderable: true,
  saved: true,
  isDirty: false,
  isSubmitting: false,
  unchanged: true,
  locked: false,
  ordering: false,
  reviewingOrder: false,
  following: false,
  orderSettled: null,
  onOrderNow: () => undefined,
  onStartAnother: () => undefined,
};

describe('the editor buttons (display only: they raise intents, main is not called)', () => {
  it('a saved protocol at rest: Order now raises its intent, Save changes says it has nothing to send', async () => {
    const desk = installOrderDesk();
    const onOrderNow = vi.fn();
    render(<EditorActions {...atRest} onOrderNow={onOrderNow} />);
    const save = screen.getByRole('button', { name: 'Save changes' });
    expect(save.getAttribute('aria-disabled')).toBe('true');
    expect(save.getAttribute('title')).toBe('No changes to save');
    await userEvent.click(screen.getByRole('button', { name: 'Order now' }));
    expect(onOrderNow).toHaveBeenCalledTimes(1);
    expect(desk.calls).toEqual([]);
  });

  it('unsaved changes: Order now waits for them to be saved', () => {
    installOrderDesk();
    render(<EditorActions {...atRest} isDirty unchanged={false} />);
    const order = screen.getByRole('button', { name: 'Order now' });
    expect((order as HTMLButtonElement).disabled).toBe(true);
    expect(order.getAttribute('title')).toBe('Save your changes first');
    expect(screen.getByRole('button', { name: 'Save changes' }).hasAttribute('aria-disabled')).toBe(
      false,
    );
  });

  it('a new order: Place order, then Start another order once it is created', async () => {
    installOrderDesk();
    const onStartAnother = vi.fn();
    const order = { ...atRest, mode: 'order' as const, orderable: false, saved: false };
    const { rerender } = render(<EditorActions {...order} unchanged={false} />);
    expect(screen.queryByRole('button', { name: 'Order now' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Place order' }).getAttribute('type')).toBe('submit');
    rerender(
      <EditorActions
        {...order}
        unchanged={false}
        orderSettled="created"
        onStartAnother={onStartAnother}
      />,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Start another order' }));
    expect(onStartAnother).toHaveBeenCalledTimes(1);
  });

  it('the head of a saved protocol: its patient, its schedule, a copy and delete', async () => {
    installOrderDesk();
    const view = savedProtocol(
      {
        customer: order().customer,
        daysSupply: 30,
        shippingMethod: 'STANDARD',
        orderType: 'ONE_TIME',
        lineItems: [
          {
            productId: 101,
            quantity: 2,
            administration: { morning: 0, afternoon: 0, evening: 1, sleep: 1 },
          },
        ],
      },
      '7d0f5a0e-3c4b-4e0b-9a55-2f1f3f6b8c11',
    );
    const onDuplicate = vi.fn();
    const onDelete = vi.fn();
    const { rerender } = render(
      <Router>
        <EditorHeadActions
          view={view}
          isDirty={false}
          onDuplicate={onDuplicate}
          onDelete={onDelete}
        />
      </Router>,
    );
    expect(screen.getByRole('link', { name: 'Dosing schedule' }).getAttribute('href')).toBe(
      `/protocols/${view.localId}/schedule`,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Duplicate for another patient' }));
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    expect(onDuplicate).toHaveBeenCalledTimes(1);
    expect(onDelete).toHaveBeenCalledTimes(1);
    rerender(
      <Router>
        <EditorHeadActions view={view} isDirty onDuplicate={onDuplicate} onDelete={onDelete} />
      </Router>,
    );
    expect(screen.queryByRole('link', { name: 'Dosing schedule' })).toBeNull();
    expect(
      (screen.getByRole('button', { name: 'Duplicate for another patient' }) as HTMLButtonElement)
        .disabled,
    ).toBe(true);
  });
});
