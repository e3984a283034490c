import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Router } from 'wouter';
import { describe, expect, it } from 'vitest';
import type { SharedIdsView } from '@shared/patient-identity-views';
import { useGuardedHashLocation } from '@renderer/lib/navigation-guard';
import SharedIdsScreen from '@renderer/screens/patients/SharedIdsScreen';
import { useToastStore } from '@renderer/stores/toast-store';
import { installOrderDesk, refuse } from '@test/support/component/fake-order-desk';

const customer = (firstName: string, lastName: string, line1: string) => ({
  sourceId: 'PAT-1001',
  firstName,
  lastName,
  email: null,
  phone: null,
  address: { line1, line2: null, city: 'Portland', state: 'OR', zipCode: '97201' },
});

const PROTOCOL_A = '7a1f4c52-3a3e-4d3e-9b7c-2f1d4c5b6a70';
const PROTOCOL_B = '8b2f4c52-3a3e-4d3e-9b7c-2f1d4c5b6a71';

const SHARED: SharedIdsView = {
  total: 1,
  ids: [
    {
      sourceId: 'PAT-1001',
      suggestedId: 'PAT-1002',
      people: [
        {
          key: 'gonzalez\u001fmaria',
          name: 'Maria Gonzalez',
          customer: customer('Maria', 'Gonzalez', '12 Oak St'),
          protocols: 1,
          orders: 0,
          protocolList: [
            { localId: PROTOCOL_A, products: ['Vitamin D3'], daysSupply: 30, fromServer: false },
          ],
        },
        {
          key: 'test\u001fdup',
          name: 'Dup Test',
          customer: customer('Dup', 'Test', '9 Elm St'),
          protocols: 1,
          orders: 0,
          protocolList: [
            { localId: PROTOCOL_B, products: ['Magnesium'], daysSupply: 60, fromServer: true },
          ],
        },
      ],
    },
  ],
};

function renderScreen() {
  window.history.replaceState(null, '', '#/patient-ids');
  return render(
    <Router hook={useGuardedHashLocation}>
      <SharedIdsScreen />
    </Router>,
  );
}

describe('the review of Patient IDs used for more than one name', () => {
  it('lists each name with its details and protocols, and changes nothing before confirming', async () => {
    let shared = SHARED;
    const desk = installOrderDesk({
      'patients.sharedIds': () => shared,
      'patients.untangle': () => {
        shared = { total: 0, ids: [] };
        return { changed: 1 };
      },
    });
    renderScreen();
    const dup = await screen.findByRole('listitem', { name: 'Dup Test' });
    expect(dup.textContent).toContain('9 Elm St, Portland, OR 97201');
    expect(dup.textContent).toContain('from the server (another desk)');
    expect(within(dup).getByRole('link', { name: 'Magnesium' }).getAttribute('href')).toBe(
      `#/protocols/${PROTOCOL_B}`,
    );
    const newId = within(dup).getByLabelText('New Patient ID for Dup Test');
    expect((newId as HTMLInputElement).value).toBe('PAT-1002');

    // A new ID: asked once more, then sent as the user typed it.
    await userEvent.clear(newId);
    await userEvent.type(newId, 'PAT-2000');
    await userEvent.click(within(dup).getByRole('button', { name: 'Give this new ID' }));
    const confirm = await screen.findByRole('dialog', { name: 'Give PAT-2000 to Dup Test?' });
    expect(desk.argsOf('patients.untangle')).toEqual([]);
    await userEvent.click(within(confirm).getByRole('button', { name: 'Change the protocols' }));
    await waitFor(() =>
      expect(desk.argsOf('patients.untangle')).toEqual([
        {
          choice: 'new-id',
          sourceId: 'PAT-1001',
          person: 'test\u001fdup',
          newSourceId: 'PAT-2000',
        },
      ]),
    );
    expect(await screen.findByText('Every Patient ID here names one person.')).toBeTruthy();
  });

  it('the same person: keeps the chosen details everywhere; a refusal says nothing changed', async () => {
    const desk = installOrderDesk({
      'patients.sharedIds': () => SHARED,
      'patients.untangle': () =>
        refuse('validation', 'A protocol of this Patient ID needs its details fixed first.'),
    });
    renderScreen();
    const maria = await screen.findByRole('listitem', { name: 'Maria Gonzalez' });
    await userEvent.click(
      within(maria).getByRole('button', { name: 'Same person: keep these details' }),
    );
    const confirm = await screen.findByRole('dialog', {
      name: 'Make every protocol of PAT-1001 one person?',
    });
    expect(confirm.textContent).toContain(
      'All 2 protocols of PAT-1001 will carry Maria Gonzalez’s name and details (12 Oak St, Portland, OR 97201).',
    );
    await userEvent.click(within(confirm).getByRole('button', { name: 'Change the protocols' }));
    await waitFor(() =>
      expect(desk.argsOf('patients.untangle')).toEqual([
        { choice: 'same-person', sourceId: 'PAT-1001', keep: 'gonzalez\u001fmaria' },
      ]),
    );
    await waitFor(() =>
      expect(useToastStore.getState().toasts.map((t) => t.title)).toContain('Nothing was changed.'),
    );
  });

  it('refuses a new ID equal to the shared one before asking', async () => {
    installOrderDesk({ 'patients.sharedIds': () => SHARED });
    renderScreen();
    const dup = await screen.findByRole('listitem', { name: 'Dup Test' });
    const newId = within(dup).getByLabelText('New Patient ID for Dup Test');
    await userEvent.clear(newId);
    await userEvent.type(newId, 'PAT-1001');
    expect(
      (within(dup).getByRole('button', { name: 'Give this new ID' }) as HTMLButtonElement).disabled,
    ).toBe(true);
    expect(within(dup).getByText('The new ID must differ from PAT-1001')).toBeTruthy();
  });
});
