import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Router } from 'wouter';
import { describe, expect, it, vi } from 'vitest';
import { PatientSummaryView } from '@shared/patient-views';
import { useGuardedHashLocation } from '@renderer/lib/navigation-guard';
import { PatientList } from '@renderer/screens/patients/PatientList';
import PatientsScreen from '@renderer/screens/patients/PatientsScreen';
import { usePatientList } from '@renderer/screens/patients/use-patients';
import { installOrderDesk, refuse } from '@test/support/component/fake-order-desk';

const summary = (over: Partial<PatientSummaryView>): PatientSummaryView =>
  PatientSummaryView.parse({
    sourceId: 'PAT-ADA-1',
    name: 'Ada Lovelace',
    person: 'lovelace\u001fada',
    sharedId: false,
    protocols: 1,
    orders: 2,
    lastOrderedAt: '2026-11-20T09:30:00.000Z',
    lastOrderCancelled: false,
    ...over,
  });

const PATIENTS = [
  summary({}),
  summary({
    sourceId: 'PAT-7',
    name: 'Grace Hopper',
    person: 'hopper\u001fgrace',
    sharedId: true,
    orders: 0,
    lastOrderedAt: null,
  }),
];

/** The patients main lists, searched by name or ID as main searches them. */
function patients(list = PATIENTS, shared = 0) {
  return installOrderDesk({
    'patients.list': ({ search }) => {
      const found = list.filter(
        (p) => !search || p.name.includes(search) || p.sourceId.includes(search),
      );
      return { patients: found, total: found.length, sharedIds: shared };
    },
    'patients.sharedIds': () => ({ total: shared, ids: [] }),
  });
}

function renderScreen() {
  window.history.replaceState(null, '', '#/patients');
  return render(
    <Router hook={useGuardedHashLocation}>
      <PatientsScreen />
    </Router>,
  );
}

describe('PatientsScreen and its PatientList', () => {
  it('lists each patient with their counts and last order, linked to their screen', async () => {
    patients();
    renderScreen();
    const list = await screen.findByRole('list', { name: 'Patients' });
    const [ada, grace] = within(list).getAllByRole('link');
    expect(ada!.getAttribute('href')).toBe('#/patients/PAT-ADA-1');
    expect(ada!.textContent).toContain('1 protocol · 2 orders');
    expect(ada!.textContent).toMatch(/Last ordered Nov 20, 2026/);
    // A shared ID opens the one person of that name.
    expect(grace!.getAttribute('href')).toBe('#/patients/PAT-7/hopper%1Fgrace');
    expect(grace!.textContent).toContain('also used for another name');
    expect(grace!.textContent).toContain('Never ordered');
    expect(screen.getByRole('status').textContent).toBe('2 patients');
  });

  it('searches as the user types, and clears a search that finds no one', async () => {
    const desk = patients();
    const user = userEvent.setup();
    renderScreen();
    await screen.findByRole('list', { name: 'Patients' });
    await user.type(screen.getByLabelText('Search patients'), 'Grace');
    await waitFor(() =>
      expect(desk.argsOf('patients.list').at(-1)).toEqual({
        search: 'Grace',
        limit: 100,
        offset: 0,
      }),
    );
    expect(await screen.findByText('1 patient match')).toBeTruthy();
    await user.type(screen.getByLabelText('Search patients'), 'zzz');
    expect(await screen.findByText('No patient matches the search.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Clear the search' }));
    expect(await screen.findByText('2 patients')).toBeTruthy();
    expect((screen.getByLabelText('Search patients') as HTMLInputElement).value).toBe('');
  });

  it('points to the review of shared IDs, and offers a new protocol when there is no patient', async () => {
    patients([], 2);
    renderScreen();
    const banner = await screen.findByText(/2 Patient IDs are used for more than one name/);
    expect(
      within(banner.closest('p')!).getByRole('link', { name: 'Review' }).getAttribute('href'),
    ).toBe('#/patient-ids');
    expect(await screen.findByText('No patients yet.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'New protocol' }).getAttribute('href')).toBe(
      '#/protocols/new',
    );
  });
});

function List({ onClear }: { onClear(): void }) {
  return <PatientList list={usePatientList('Ada')} searched onClear={onClear} />;
}

describe('PatientList alone', () => {
  it('a list that cannot be read says so and reads again on asking', async () => {
    let fail = true;
    const desk = installOrderDesk({
      'patients.list': () =>
        fail
          ? refuse('internal', 'The store is busy.')
          : { patients: [PATIENTS[0]!], total: 1, sharedIds: 0 },
    });
    render(<List onClear={vi.fn()} />);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Patients could not be listed.');
    fail = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    const list = await screen.findByRole('list', { name: 'Patients' });
    expect(within(list).getByRole('link').textContent).toContain('Ada Lovelace');
    expect(desk.argsOf('patients.list').at(-1)).toEqual({ search: 'Ada', limit: 100, offset: 0 });
  });
});
