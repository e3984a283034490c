import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Router } from 'wouter';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ProtocolRowView } from '@shared/protocol-views';
import { useGuardedHashLocation } from '@renderer/lib/navigation-guard';
import ProtocolsScreen from '@renderer/screens/protocols/ProtocolsScreen';
import { useBatchDraftStore } from '@renderer/stores/batch-draft-store';
import { useProtocolsStore } from '@renderer/stores/protocols-store';
import { useToastStore } from '@renderer/stores/toast-store';
import { installOrderDesk, type Handlers } from '@test/support/component/fake-order-desk';
import { listView, protocolRow } from '@test/support/component/protocol-fixtures';
import { protocolListHandlers } from '@test/support/component/protocol-list-desk';

const ADA = '7d0f5a0e-3c4b-4e0b-9a55-2f1f3f6b8c11';
const GRACE = '8e1a6b1f-4d5c-4f1c-8b66-3a2a4a7c9d22';
const ALAN = '9f2b7c2a-5e6d-4a2d-9c77-4b3b5b8daf33';

/** Three protocols: one synced with an order, one in conflict, one whose create was refused. */
const ROWS: ProtocolRowView[] = [
  protocolRow(
    {},
    {
      products: ['Magnesium Glycinate 120 mg', 'Krill Oil 500 mg', 'Vitamin D3 1000 IU'],
      lastOrder: {
        id: 'ord_1001',
        status: 'SHIPPED',
        createdAt: Date.parse('2026-11-01T09:00:00.000Z'),
        runsOutAt: Date.parse('2026-12-01T09:00:00.000Z'),
        daysLeft: 2,
      },
    },
  ),
  protocolRow({
    localId: GRACE,
    customerName: 'Grace Hopper',
    sourceId: 'PAT-GH-2',
    email: null,
    syncState: 'conflict',
  }),
  protocolRow(
    {
      localId: ALAN,
      customerName: 'Alan Turing',
      sourceId: 'PAT-AT-3',
      serverId: null,
      syncState: 'pending',
      change: {
        op: 'create',
        state: 'rejected',
        attempts: 1,
        message: 'Product 99 is discontinued.',
      },
    },
    { daysSupply: null, shipping: null },
  ),
];

/** main's answers: the rows the search names (by patient name) and states keep. */
function renderList(rows: ProtocolRowView[] = ROWS, more: Handlers = {}) {
  const desk = installOrderDesk({ ...protocolListHandlers(rows), ...more });
  window.history.replaceState(null, '', '#/protocols');
  render(
    <Router hook={useGuardedHashLocation}>
      <Route path="/protocols">
        <ProtocolsScreen />
      </Route>
    </Router>,
  );
  return desk;
}

const rowOf = (name: string) =>
  screen.getByRole('link', { name: new RegExp(`^${name}`) }).closest('li')!;

beforeEach(() => {
  useProtocolsStore.getState().reset();
  useToastStore.setState({ toasts: [] });
});

describe('ProtocolsScreen, ProtocolList and ProtocolRow: the local protocols', () => {
  it('lists each protocol with its columns, and counts them', async () => {
    const desk = renderList();

    await waitFor(() =>
      expect(screen.getByTestId('protocol-count').textContent).toBe('3 protocols'),
    );
    expect(desk.argsOf('protocols.list')[0]).toEqual({
      search: '',
      sort: 'changed',
      limit: 100,
      cursor: null,
    });
    const ada = rowOf('Ada Lovelace');
    expect(within(ada).getByRole('link').getAttribute('href')).toBe(`#/protocols/${ADA}`);
    expect(within(ada).getByText('Magnesium Glycinate 120 mg, Krill Oil 500 mg')).toBeTruthy();
    expect(within(ada).getByText('+1 more')).toBeTruthy();
    expect(within(ada).getByText('30 days')).toBeTruthy();
    expect(within(ada).getByText('2 days left')).toBeTruthy();
    expect(within(ada).getByText('Shipped')).toBeTruthy();
    const alan = rowOf('Alan Turing');
    expect(within(alan).getAllByText('Not set')).toHaveLength(2);
    expect(within(alan).getByText('Never ordered')).toBeTruthy();
  });

  it('shows each row’s sync badges (SyncBadges): a conflict links to where it is resolved', async () => {
    renderList();
    const grace = await screen.findByRole('link', { name: /^Grace Hopper/ });
    const conflict = within(grace.closest('li')!).getByRole('link', { name: /^Conflict/ });
    expect(conflict.getAttribute('href')).toBe('#/conflicts');
    expect(conflict.textContent).toContain('(resolve)');
    const alan = rowOf('Alan Turing');
    const badges = document.getElementById(
      within(alan)
        .getByRole('link', { name: /^Alan Turing/ })
        .getAttribute('aria-describedby')!,
    )!;
    expect(badges.textContent).toBe('RejectedRejected: Product 99 is discontinued.');
  });

  it('says there are no protocols yet, with no selection bar', async () => {
    renderList([]);
    const empty = (await screen.findByText('No protocols yet.')).parentElement!;
    expect(within(empty).getByRole('link', { name: 'New protocol' }).getAttribute('href')).toBe(
      '#/protocols/new',
    );
    await waitFor(() =>
      expect(screen.queryByRole('group', { name: 'Selection for a batch' })).toBeNull(),
    );
  });

  it('moves between rows with the arrows, selects with Space and opens with Enter', async () => {
    renderList();
    const user = userEvent.setup();
    const first = await screen.findByRole('link', { name: /^Ada Lovelace/ });
    // Focused as Tab would (the list follows the row in focus).
    act(() => first.focus());
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(screen.getByRole('link', { name: /^Grace Hopper/ }));
    await user.keyboard(' ');
    expect([...useProtocolsStore.getState().selected]).toEqual([GRACE]);
    const check = screen.getByRole('checkbox', { name: 'Select Grace Hopper (PAT-GH-2)' });
    expect(check).toHaveProperty('checked', true);
    act(() => check.focus());
    await user.keyboard('{Enter}');
    expect(window.location.hash).toBe(`#/protocols/${GRACE}`);
  });
});

describe('ColumnHeader: each column sorts the list', () => {
  it('sorts by a column, then the other way, then back to the last change first', async () => {
    const desk = renderList();
    const user = userEvent.setup();
    await screen.findByRole('link', { name: /^Ada Lovelace/ });
    const header = screen.getByRole('group', { name: 'Sort protocols by' });
    await user.click(within(header).getByRole('button', { name: 'Last order' }));
    const sorted = within(header).getByRole('button', { name: 'Last order, sorted descending' });
    expect(sorted.getAttribute('aria-pressed')).toBe('true');
    await waitFor(() =>
      expect(desk.argsOf('protocols.list').at(-1)).toMatchObject({ sort: 'lastOrder' }),
    );
    await user.click(sorted);
    await waitFor(() =>
      expect(desk.argsOf('protocols.list').at(-1)).toMatchObject({
        sort: 'lastOrder',
        direction: 'asc',
      }),
    );
    await user.click(within(header).getByRole('button', { name: 'Last order, sorted ascending' }));
    expect(useProtocolsStore.getState().sort).toBe('changed');
    expect(
      within(header).getByRole('button', { name: 'Last order' }).getAttribute('aria-pressed'),
    ).toBe('false');
    // Each click is a step of the undo history, with the sort before and after.
    const desc = listView({ sort: 'lastOrder' });
    const asc = listView({ sort: 'lastOrder', direction: 'asc' });
    expect(desk.argsOf('undo.noteView')).toEqual([
      { before: listView(), after: desc },
      { before: desc, after: asc },
      { before: asc, after: listView() },
    ]);
  });
});

describe('SelectionBar: the protocols chosen for a batch', () => {
  it('selects every match, clears, and hands the choice to the review', async () => {
    const desk = renderList();
    const user = userEvent.setup();
    const bar = await screen.findByRole('group', { name: 'Selection for a batch' });
    expect(within(bar).getByRole('status').textContent).toBe('No protocol selected');
    await user.click(await within(bar).findByRole('button', { name: 'Select all 3' }));
    expect(desk.argsOf('protocols.matchingIds')).toEqual([{ search: '' }]);
    expect(within(bar).getByRole('status').textContent).toBe('3 selected');
    await user.click(within(bar).getByRole('button', { name: 'Clear selection' }));
    expect(within(bar).getByRole('status').textContent).toBe('No protocol selected');

    await user.click(screen.getByRole('checkbox', { name: 'Select Ada Lovelace (PAT-ADA-1)' }));
    await user.click(within(bar).getByRole('button', { name: 'Review batch (1)' }));
    expect(useBatchDraftStore.getState().protocolLocalIds).toEqual([ADA]);
    expect(window.location.hash).toBe('#/batches/review');
  });

  it('says how many of the selection the search hides', async () => {
    renderList();
    const user = userEvent.setup();
    await user.click(
      await screen.findByRole('checkbox', { name: 'Select Ada Lovelace (PAT-ADA-1)' }),
    );
    await user.click(screen.getByRole('checkbox', { name: 'Select Grace Hopper (PAT-GH-2)' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search protocols' }), 'grace');
    const bar = screen.getByRole('group', { name: 'Selection for a batch' });
    await waitFor(() =>
      expect(within(bar).getByRole('status').textContent).toBe(
        '2 selected · 1 are hidden by the search or filters, still selected',
      ),
    );
  });
});

describe('ProtocolsScreen: the list as CSV', () => {
  it('exports the protocols the list shows, in its order', async () => {
    Object.assign(URL, { createObjectURL: () => 'blob:x', revokeObjectURL: () => {} });
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const desk = renderList(ROWS, {
      'protocols.exportCsv': () => ({ csv: 'x\r\n1\r\n', rows: 1 }),
    });
    await screen.findByRole('link', { name: /^Ada Lovelace/ });
    await userEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(useToastStore.getState().toasts).toHaveLength(1));
    expect(desk.argsOf('protocols.exportCsv')).toEqual([{ search: '', sort: 'changed' }]);
  });
});
