import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Router } from 'wouter';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ConflictView, type ConflictChoice } from '@shared/protocol-views';
import { useGuardedHashLocation } from '@renderer/lib/navigation-guard';
import { ConflictCard } from '@renderer/screens/conflicts/ConflictCard';
import ConflictsScreen from '@renderer/screens/conflicts/ConflictsScreen';
import { useToastStore } from '@renderer/stores/toast-store';
import { useUndoStore } from '@renderer/stores/undo-store';
import { installOrderDesk, refuse, type Handlers } from '@test/support/component/fake-order-desk';
import { packProduct } from '@test/support/component/fixtures';

const ADA = '7d0f5a0e-3c4b-4e0b-9a55-2f1f3f6b8c11';
const GRACE = '8e1a6b1f-4d5c-4f1c-8b66-3a2a4a7c9d22';
const COPY = '9f2b7c2a-5e6d-4a2d-9c77-4b3b5b8daf33';

const customer = (lastName: string, email: string | null) => ({
  sourceId: 'PAT-ADA-1',
  firstName: 'Ada',
  lastName,
  email,
  phone: null,
  address: {
    line1: '12 Analytical Way',
    line2: null,
    city: 'Portland',
    state: 'OR',
    zipCode: '97201',
  },
});

/** This desk's version: magnesium at bedtime (the catalog names it), 30 days. */
const MINE = {
  customer: customer('Lovelace', 'ada@example.com'),
  daysSupply: 30,
  shippingMethod: 'STANDARD',
  orderType: 'ONE_TIME',
  lineItems: [
    {
      productId: 101,
      quantity: 1,
      administration: { morning: 0, afternoon: 0, evening: 0, sleep: 1 },
    },
  ],
};

/** The server's: another last name, 60 days, and krill oil instead. */
const THEIRS = {
  id: 'prot_1',
  customer: customer('King', 'ada@example.com'),
  daysSupply: 60,
  orderType: 'ONE_TIME',
  shippingMethod: 'STANDARD',
  discount: '15%',
  lineItems: [
    {
      productId: 202,
      name: 'Krill Oil 500 mg',
      quantity: 1,
      price: '0.30',
      discountedPrice: '0.25',
      totalPrice: '15.00',
      external: true,
      imageUrl: null,
      administration: null,
    },
  ],
  subtotalPrice: '15.00',
  totalDiscount: '2.25',
  totalFees: '0.00',
  totalVolumeDiscount: '0.00',
  totalShipping: '7.99',
  totalPrice: '20.74',
  createdAt: '2026-11-01T09:00:00.000Z',
  updatedAt: '2026-11-25T09:00:00.000Z',
};

const EDITED = ConflictView.parse({
  localId: ADA,
  serverId: 'prot_1',
  kind: 'edited-on-server',
  detectedAt: Date.parse('2026-11-26T10:00:00.000Z'),
  mine: MINE,
  theirs: THEIRS,
  choices: ['keep-mine', 'take-theirs', 'keep-both'],
});

/** Grace's protocol, deleted on the server while it was changed here. */
const DELETED = ConflictView.parse({
  localId: GRACE,
  serverId: 'prot_2',
  kind: 'deleted-on-server',
  detectedAt: Date.parse('2026-11-26T11:00:00.000Z'),
  mine: { ...MINE, customer: { ...MINE.customer, firstName: 'Grace', lastName: 'Hopper' } },
  theirs: null,
  choices: ['keep-mine', 'take-theirs', 'keep-both'],
});

beforeEach(() => {
  useToastStore.setState(useToastStore.getInitialState(), true);
  useUndoStore.setState(useUndoStore.getInitialState(), true);
});

function renderScreen(conflicts: () => ConflictView[], more: Handlers = {}) {
  const desk = installOrderDesk({
    'protocols.conflicts': () => conflicts(),
    'catalog.product': () => packProduct(),
    ...more,
  });
  window.history.replaceState(null, '', '#/conflicts');
  render(
    <Router hook={useGuardedHashLocation}>
      <Route path="/conflicts">
        <ConflictsScreen />
      </Route>
    </Router>,
  );
  return desk;
}

const rowOf = (table: HTMLElement, label: string) =>
  [...within(table).getAllByRole('row')].find((r) =>
    r.firstElementChild?.textContent?.startsWith(label),
  )!;

describe('ConflictsScreen and ConflictCard: mine and theirs, and a choice each', () => {
  it('compares the two versions field by field, naming products from the catalog', async () => {
    const desk = renderScreen(() => [EDITED, DELETED]);
    const card = await screen.findByRole('region', { name: 'Ada Lovelace' });
    expect(screen.getByText('2 conflicts to resolve')).toBeTruthy();
    expect(within(card).getByText('Changed here and on the server')).toBeTruthy();
    expect(within(card).getByText(/· 4 fields differ$/)).toBeTruthy();
    const table = within(card).getByRole('table');
    expect([...rowOf(table, 'Name').children].map((c) => c.textContent)).toEqual([
      'Name (differs)',
      'Mine: Ada Lovelace',
      'Theirs: Ada King',
    ]);
    // Only this desk's version has product 101: its name comes from the catalog.
    await within(table).findByRole('rowheader', {
      name: /^Magnesium Glycinate 120 mg ?\(differs\)$/,
    });
    expect(desk.argsOf('catalog.product')).toEqual([{ id: 101 }]);
    expect(rowOf(table, 'Krill Oil 500 mg').children[1]!.textContent).toBe(
      'Mine: Not in this version',
    );

    const grace = screen.getByRole('region', { name: 'Grace Hopper' });
    expect(within(grace).getAllByText('Deleted on the server').length).toBeGreaterThan(0);
    // After a server delete, Keep both would do what Keep mine does: it is not offered.
    expect(
      within(within(grace).getByRole('group', { name: 'Resolve the conflict of Grace Hopper' }))
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Keep mine', 'Delete it here too']);
  });

  it('shows only the fields that differ when asked', async () => {
    renderScreen(() => [EDITED]);
    const card = await screen.findByRole('region', { name: 'Ada Lovelace' });
    await userEvent.click(screen.getByRole('checkbox', { name: 'Only the fields that differ' }));
    const labels = within(within(card).getByRole('table'))
      .getAllByRole('rowheader')
      .map((h) => h.textContent);
    expect(labels).toEqual([
      'Name (differs)',
      'Days supply (differs)',
      expect.stringMatching(/ \(differs\)$/),
      expect.stringMatching(/ \(differs\)$/),
    ]);
  });

  it('asks before Keep mine overwrites the server, then resolves, says what it did, and undoes it', async () => {
    let open = [EDITED];
    const desk = renderScreen(() => open, {
      'protocols.resolveConflict': () => {
        open = [];
        return { localId: ADA, copyLocalId: null, undoable: true };
      },
      'undo.undo': () => ({
        step: { seq: 3, kind: 'resolve', label: 'Conflict resolution for Ada Lovelace' },
        localIds: [ADA],
      }),
    });
    const user = userEvent.setup();
    const card = await screen.findByRole('region', { name: 'Ada Lovelace' });
    await user.click(within(card).getByRole('button', { name: 'Keep mine' }));
    const dialog = await screen.findByRole('alertdialog', {
      name: "Replace the server's version of Ada Lovelace?",
    });
    expect(within(dialog).getByText('Name: "Ada King" becomes "Ada Lovelace"')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: "Replace the server's version" }));
    expect(desk.argsOf('protocols.resolveConflict')).toEqual([
      { localId: ADA, choice: 'keep-mine' },
    ]);
    await desk.emit('changed', { subjects: ['protocols'] });
    const outcome = await screen.findByText(
      "Kept yours: your version of Ada Lovelace will replace the server's.",
    );
    expect(
      within(outcome.closest('[role="status"]') as HTMLElement)
        .getByRole('link', { name: 'Open Ada Lovelace' })
        .getAttribute('href'),
    ).toBe(`#/protocols/${ADA}`);
    await waitFor(() => expect(screen.getByText('No conflicts')).toBeTruthy());
    // Keep mine is a step: its Undo takes back that resolution only (theirs is sent again).
    await user.click(
      within(outcome.closest('[role="status"]') as HTMLElement).getByRole('button', {
        name: 'Undo',
      }),
    );
    await waitFor(() =>
      expect(desk.argsOf('undo.undo')).toEqual([{ kind: 'resolve', localId: ADA }]),
    );
    expect(screen.queryByText(/^Kept yours:/)).toBeNull();
  });

  it('keeps both without asking, and links to the copy', async () => {
    const desk = renderScreen(() => [EDITED], {
      'protocols.resolveConflict': () => ({ localId: ADA, copyLocalId: COPY, undoable: true }),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Keep both' }));
    expect(desk.argsOf('protocols.resolveConflict')).toEqual([
      { localId: ADA, choice: 'keep-both' },
    ]);
    expect((await screen.findByRole('link', { name: 'Open the copy' })).getAttribute('href')).toBe(
      `#/protocols/${COPY}`,
    );
  });

  it('offers no Undo for a choice that changed nothing (mine and theirs alike)', async () => {
    renderScreen(() => [EDITED], {
      'protocols.resolveConflict': () => ({ localId: ADA, copyLocalId: null, undoable: false }),
    });
    const card = await screen.findByRole('region', { name: 'Ada Lovelace' });
    await userEvent.click(within(card).getByRole('button', { name: 'Take theirs' }));
    const outcome = await screen.findByText(/^Took theirs/);
    const status = outcome.closest('[role="status"]') as HTMLElement;
    expect(within(status).queryByRole('button', { name: 'Undo' })).toBeNull();
  });

  it('says a failed resolve on its card', async () => {
    renderScreen(() => [EDITED], {
      'protocols.resolveConflict': () => refuse('network', 'The server cannot be reached.'),
    });
    const card = await screen.findByRole('region', { name: 'Ada Lovelace' });
    await userEvent.click(within(card).getByRole('button', { name: 'Take theirs' }));
    expect((await within(card).findByRole('alert')).textContent).toMatch(
      /^This conflict could not be resolved\./,
    );
  });

  it('ConflictCard alone: answers the choice through onResolve', async () => {
    const onResolve = vi.fn((_choice: ConflictChoice) => Promise.resolve(null));
    render(
      <ConflictCard
        conflict={DELETED}
        productName={(id) => `Product ${id}`}
        onlyDifferences={false}
        onResolve={onResolve}
      />,
    );
    // Nothing on the server is overwritten: Keep mine asks nothing.
    await userEvent.click(screen.getByRole('button', { name: 'Keep mine' }));
    expect(onResolve).toHaveBeenCalledWith('keep-mine');
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });
});
