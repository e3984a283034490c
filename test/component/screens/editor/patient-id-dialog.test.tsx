import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { PatientIdClashView } from '@shared/patient-identity-views';
import { PatientIdDialog, type PatientIdAnswer } from '@renderer/screens/editor/PatientIdDialog';
import { order } from '@test/support/component/fixtures';

const CLASH = PatientIdClashView.parse({
  sourceId: 'PAT-1001',
  name: 'Grace Hopper',
  others: [
    {
      key: 'lovelace ada',
      name: 'Ada Lovelace',
      customer: order().customer,
      protocols: 2,
      orders: 0,
    },
  ],
  suggestedId: 'PAT-1002',
});

function renderDialog(failure: string | null = null) {
  const onAnswer = vi.fn<(a: PatientIdAnswer) => void>();
  const onCancel = vi.fn();
  render(
    <PatientIdDialog
      clash={CLASH}
      busy={false}
      failure={failure}
      onAnswer={onAnswer}
      onCancel={onCancel}
    />,
  );
  const dialog = screen.getByRole('dialog', {
    name: 'Patient ID PAT-1001 already belongs to Ada Lovelace',
  });
  return { onAnswer, onCancel, dialog };
}

describe('PatientIdDialog: one Patient ID, one person', () => {
  it('Save waits for a choice; the stored details of the same person are one answer', async () => {
    const { onAnswer, dialog } = renderDialog();
    const save = within(dialog).getByRole('button', { name: 'Save' });
    expect((save as HTMLButtonElement).disabled).toBe(true);
    await userEvent.click(
      within(dialog).getByRole('radio', { name: /^Yes, Ada Lovelace: use the stored details/ }),
    );
    await userEvent.click(save);
    expect(onAnswer).toHaveBeenCalledWith({ choice: 'use-stored', person: 'lovelace ada' });
  });

  it('update everywhere names the other protocols it writes', async () => {
    const { onAnswer, dialog } = renderDialog();
    const everywhere = within(dialog).getByRole('radio', {
      name: /^Yes: update the details everywhere/,
    });
    expect(everywhere.getAttribute('aria-describedby')).toBeTruthy();
    const text = document.getElementById(everywhere.getAttribute('aria-describedby')!)?.textContent;
    expect(text).toContain('write them on the 2 other protocols of PAT-1001');
    await userEvent.click(everywhere);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(onAnswer).toHaveBeenCalledWith({ choice: 'update-everywhere' });
  });

  it('a new ID: the free one suggested, the same ID refused, another taken', async () => {
    const { onAnswer, onCancel, dialog } = renderDialog(
      'The protocol was not saved: the disk is full.',
    );
    expect(within(dialog).getByRole('alert').textContent).toBe(
      'The protocol was not saved: the disk is full.',
    );
    await userEvent.click(within(dialog).getByRole('radio', { name: /^No, another person/ }));
    const id = within(dialog).getByLabelText('New Patient ID');
    expect(id).toHaveProperty('value', 'PAT-1002');
    await userEvent.clear(id);
    await userEvent.type(id, 'PAT-1001');
    expect(dialog.textContent).toContain('The new ID must differ from PAT-1001');
    expect(
      (within(dialog).getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled,
    ).toBe(true);
    await userEvent.clear(id);
    await userEvent.type(id, 'PAT-2000 ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(onAnswer).toHaveBeenCalledWith({ choice: 'new-id', sourceId: 'PAT-2000' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalledTimes(1);
  });
});
