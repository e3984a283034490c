import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Router } from 'wouter';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ActivityEntryView,
  type ActivityFilter,
  type ChainCheckView,
} from '@shared/activity-views';
import { useGuardedHashLocation } from '@renderer/lib/navigation-guard';
import ActivityScreen from '@renderer/screens/activity/ActivityScreen';
import { useActivityStore } from '@renderer/stores/activity-store';
import { installOrderDesk, refuse } from '@test/support/component/fake-order-desk';

const PROTOCOL = '7a1f4c52-3a3e-4d3e-9b7c-2f1d4c5b6a70';

const entry = (over: Partial<ActivityEntryView>): ActivityEntryView =>
  ActivityEntryView.parse({
    seq: 1,
    atLocal: '2026-11-26T17:05:00.000Z',
    atServer: '2026-11-26T17:05:01.000Z',
    deskId: 'desk-1',
    deskName: 'front-desk',
    osUser: 'reception',
    staff: 'Dana',
    action: 'protocol-created',
    subjects: {},
    more: {},
    detail: {},
    ...over,
  });

const ENTRIES = [
  entry({
    seq: 3,
    action: 'order-cancelled',
    subjects: { patients: ['PAT-1'], orders: ['ord_1001'], protocols: [PROTOCOL] },
  }),
  entry({
    seq: 2,
    action: 'protocol-edited',
    staff: null,
    atServer: null,
    subjects: { patients: ['PAT-1'], protocols: [PROTOCOL] },
    detail: { keys: ['daysSupply'] },
  }),
  entry({ seq: 1, action: 'settings-changed', detail: { scope: 'app', keys: ['ui.theme'] } }),
];

/** The record's answers: its entries filtered as main filters them, and the check given. */
function record(check: ChainCheckView = { intact: true, entries: 3, first: 1 }) {
  return installOrderDesk({
    'activity.list': ({ patient, person, action }) => {
      const entries = ENTRIES.filter(
        (e) =>
          (!patient || e.subjects.patients?.includes(patient)) &&
          (!person || e.staff === person || e.osUser === person) &&
          (!action || e.action === action),
      );
      return { entries, total: entries.length };
    },
    'activity.people': () => ({ staff: ['Dana'], osUsers: ['reception'] }),
    'activity.check': () => check,
    'activity.exportCsv': () => ({ csv: '\uFEFFEntry\r\n3\r\n', rows: 1 }),
  });
}

function renderScreen() {
  window.history.replaceState(null, '', '#/activity');
  return render(
    <Router hook={useGuardedHashLocation}>
      <ActivityScreen />
    </Router>,
  );
}

const entriesList = () => screen.findByRole('list', { name: 'Activity entries, newest first' });
const lastList = (desk: ReturnType<typeof record>): ActivityFilter =>
  desk.argsOf('activity.list').at(-1)!;

// The filters are kept while the window is open: each test starts from none.
beforeEach(() => useActivityStore.getState().reset());

describe('the Activity screen', () => {
  it('shows each entry: what, who at which desk, the ids as links, both times; and the record intact', async () => {
    record();
    renderScreen();
    const list = await entriesList();
    const rows = within(list).getAllByTestId('activity-entry');
    expect(rows).toHaveLength(3);
    const cancelled = within(list).getByRole('article', { name: /^Order cancelled #3/ });
    expect(cancelled.textContent).toContain('Dana (reception) at front-desk');
    expect(within(cancelled).getByRole('link', { name: 'PAT-1' }).getAttribute('href')).toBe(
      '#/patients/PAT-1',
    );
    expect(within(cancelled).getByRole('link', { name: 'ord_1001' }).getAttribute('href')).toBe(
      '#/orders/ord_1001',
    );
    expect(
      within(cancelled)
        .getByRole('link', { name: `Protocol ${PROTOCOL}` })
        .getAttribute('href'),
    ).toBe(`#/protocols/${PROTOCOL}`);
    expect(cancelled.textContent).toMatch(/Server Nov 26, 2026/);
    const edited = within(list).getByRole('article', { name: /^Protocol edited #2/ });
    expect(edited.textContent).toContain('reception at front-desk · changed Days supply');
    expect(edited.textContent).toContain('Server time unknown');
    expect(await screen.findByText(/Record intact: 3 entries/)).toBeTruthy();
    expect(screen.getByText('3 entries').getAttribute('role')).toBe('status');
  });

  it('filters by patient, person, action and days, as main is asked', async () => {
    const desk = record();
    const user = userEvent.setup();
    renderScreen();
    await entriesList();
    await user.type(screen.getByLabelText('Patient ID'), 'PAT-1');
    await waitFor(() => expect(lastList(desk)).toMatchObject({ patient: 'PAT-1' }));
    expect(await screen.findByText('2 entries match')).toBeTruthy();

    await user.selectOptions(screen.getByLabelText('Person'), 'Dana');
    await waitFor(() => expect(lastList(desk)).toMatchObject({ patient: 'PAT-1', person: 'Dana' }));
    expect(await screen.findByText('1 entry match')).toBeTruthy();

    await user.selectOptions(screen.getByLabelText('Action'), 'Protocol edited');
    await waitFor(() => expect(lastList(desk)).toMatchObject({ action: 'protocol-edited' }));
    expect(await screen.findByText('No entry matches the filters.')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Clear the filters' }));
    await waitFor(() => expect(lastList(desk)).toEqual({ limit: 100, offset: 0 }));
    await user.type(screen.getByLabelText('From'), '2026-11-20');
    await user.type(screen.getByLabelText('To'), '2026-11-26');
    await waitFor(() =>
      expect(lastList(desk)).toMatchObject({
        from: new Date(2026, 10, 20).toISOString(),
        // The day after the last one chosen, as the bound is exclusive.
        to: new Date(2026, 10, 27).toISOString(),
      }),
    );
  });

  it('exports what the filters match and hands the file over', async () => {
    const desk = record();
    const user = userEvent.setup();
    const created: Blob[] = [];
    vi.stubGlobal('URL', {
      ...URL,
      createObjectURL: (blob: Blob) => {
        created.push(blob);
        return 'blob:test';
      },
      revokeObjectURL: () => undefined,
    });
    try {
      renderScreen();
      await entriesList();
      await user.selectOptions(screen.getByLabelText('Action'), 'Order cancelled');
      await user.click(screen.getByRole('button', { name: 'Export CSV' }));
      await waitFor(() =>
        expect(desk.argsOf('activity.exportCsv')).toEqual([{ action: 'order-cancelled' }]),
      );
      await waitFor(() => expect(created).toHaveLength(1));
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('says where the record is broken, and says a record that cannot be read failed', async () => {
    record({
      intact: false,
      entries: 4,
      brokenAt: 5,
      reason: 'hash-mismatch',
      message: 'Entry #5 was changed after it was written: its content does not match its hash.',
    });
    renderScreen();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(
      'Record broken at entry #5: Entry #5 was changed after it was written',
    );
  });

  it('says when the record could not be listed, and when it is empty', async () => {
    installOrderDesk({
      'activity.list': () => refuse('not-connected', 'Not connected.'),
      'activity.people': () => ({ staff: [], osUsers: [] }),
      'activity.check': () => ({ intact: true, entries: 0, first: null }),
    });
    const { unmount } = renderScreen();
    expect((await screen.findAllByRole('alert'))[0]!.textContent).toContain(
      'The activity record could not be read.',
    );
    unmount();
    installOrderDesk({
      'activity.list': () => ({ entries: [], total: 0 }),
      'activity.people': () => ({ staff: [], osUsers: [] }),
      'activity.check': () => ({ intact: true, entries: 0, first: null }),
    });
    renderScreen();
    expect(await screen.findByText('Nothing recorded yet.')).toBeTruthy();
    expect(await screen.findByText(/Record intact: 0 entries/)).toBeTruthy();
  });
});
