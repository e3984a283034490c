import { render, screen, fireEvent } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ConfirmDialog, Dialog } from '@renderer/components/Dialog';

/** A button that opens a dialog of two fields, as a screen would. */
function WithDialog({ onClose = () => undefined }: { onClose?: () => void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Edit note
      </button>
      <Dialog
        open={open}
        title="Edit the note"
        onClose={() => {
          onClose();
          setOpen(false);
        }}
      >
        <input aria-label="Note" data-autofocus />
        <button type="button" onClick={() => setOpen(false)}>
          Done
        </button>
      </Dialog>
    </>
  );
}

describe('Dialog and ConfirmDialog: modal dialogs', () => {
  it('opens titled, focuses its first field, keeps Tab inside, and gives the focus back', async () => {
    render(<WithDialog />);
    const opener = screen.getByRole('button', { name: 'Edit note' });
    await userEvent.click(opener);
    const dialog = screen.getByRole('dialog', { name: 'Edit the note' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    const note = screen.getByRole('textbox', { name: 'Note' });
    const done = screen.getByRole('button', { name: 'Done' });
    expect(document.activeElement).toBe(note);
    done.focus();
    fireEvent.keyDown(done, { key: 'Tab' });
    expect(document.activeElement).toBe(note);
    fireEvent.keyDown(note, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(done);
    await userEvent.click(done);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('Escape (the dialog’s cancel) asks the owner to close it', async () => {
    const onClose = vi.fn();
    render(<WithDialog onClose={onClose} />);
    await userEvent.click(screen.getByRole('button', { name: 'Edit note' }));
    fireEvent(screen.getByRole('dialog'), new Event('cancel', { cancelable: true }));
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('a confirmation: an alert dialog with Cancel focused first, its action busy while it runs', async () => {
    const onConfirm = vi.fn();
    const onCancel = vi.fn();
    const { rerender } = render(
      <ConfirmDialog
        open
        title="Delete the protocol?"
        confirmLabel="Delete"
        onConfirm={onConfirm}
        onCancel={onCancel}
      >
        <p>It is deleted here and on the server.</p>
      </ConfirmDialog>,
    );
    const dialog = screen.getByRole('alertdialog', { name: 'Delete the protocol?' });
    expect(dialog.textContent).toContain('It is deleted here and on the server.');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' }));
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    expect(onCancel).toHaveBeenCalledTimes(1);
    rerender(
      <ConfirmDialog
        open
        busy
        title="Delete the protocol?"
        confirmLabel="Delete"
        onConfirm={onConfirm}
        onCancel={onCancel}
      >
        <p>It is deleted here and on the server.</p>
      </ConfirmDialog>,
    );
    const del = screen.getByRole('button', { name: 'Delete' });
    expect((del as HTMLButtonElement).disabled).toBe(true);
    expect(del.getAttribute('aria-busy')).toBe('true');
  });
});
