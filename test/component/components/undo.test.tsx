import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Router } from 'wouter';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { UndoOutcome } from '@shared/undo-views';
import { Toasts } from '@renderer/components/Toasts';
import { useUndoShortcuts } from '@renderer/components/use-undo-shortcuts';
import { useGuardedHashLocation } from '@renderer/lib/navigation-guard';
import { usePendingDeleteStore } from '@renderer/stores/pending-delete-store';
import { useToastStore } from '@renderer/stores/toast-store';
import { undoAction, useUndoStore } from '@renderer/stores/undo-store';
import { installOrderDesk, refuse } from '@test/support/component/fake-order-desk';

beforeEach(() => {
  useToastStore.setState(useToastStore.getInitialState(), true);
  useUndoStore.setState(useUndoStore.getInitialState(), true);
  usePendingDeleteStore.setState(usePendingDeleteStore.getInitialState(), true);
});

const outcome = (seq: number, label: string): UndoOutcome => ({
  step: { seq, kind: 'edit', label },
  localIds: ['7a1f4c52-3a3e-4d3e-9b7c-2f1d4c5b6a70'],
});

function Shell() {
  useUndoShortcuts();
  return (
    <>
      <input aria-label="Name" />
      <button type="button">Somewhere</button>
      <Toasts />
    </>
  );
}

const renderShell = () =>
  render(
    <Router hook={useGuardedHashLocation}>
      <Shell />
    </Router>,
  );

describe('Undo and redo in the window: keys, toasts, what cannot be undone', () => {
  it('Ctrl+Z undoes the last change and says what, with Redo; Ctrl+Shift+Z and Ctrl+Y redo', async () => {
    const desk = installOrderDesk({
      'undo.undo': () => outcome(7, 'Edit of the protocol for Ada Lovelace'),
      'undo.redo': () => outcome(7, 'Edit of the protocol for Ada Lovelace'),
    });
    renderShell();
    await userEvent.click(screen.getByRole('button', { name: 'Somewhere' }));
    await userEvent.keyboard('{Control>}z{/Control}');
    const status = await screen.findByText('Undone: Edit of the protocol for Ada Lovelace.');
    expect(desk.argsOf('undo.undo')).toEqual([{}]);
    // The toast's Redo redoes that step only.
    const toastEl = status.closest('.toast') as HTMLElement;
    await userEvent.click(within(toastEl).getByRole('button', { name: 'Redo' }));
    expect(await screen.findByText('Redone: Edit of the protocol for Ada Lovelace.')).toBeTruthy();
    expect(desk.argsOf('undo.redo')).toEqual([{ seq: 7 }]);
    await userEvent.keyboard('{Control>}{Shift>}z{/Shift}{/Control}');
    await userEvent.keyboard('{Control>}y{/Control}');
    await vi.waitFor(() => expect(desk.argsOf('undo.redo')).toHaveLength(3));
    expect(desk.argsOf('undo.redo').slice(1)).toEqual([{}, {}]);
  });

  it('in a text field the keys stay the field’s own: nothing is asked of main', async () => {
    const desk = installOrderDesk({});
    renderShell();
    await userEvent.click(screen.getByRole('textbox', { name: 'Name' }));
    await userEvent.keyboard('Ada{Control>}z{/Control}{Control>}y{/Control}');
    expect(desk.calls).toEqual([]);
  });

  it('nothing to undo says so; a toast’s Undo after a newer change shows main’s refusal', async () => {
    installOrderDesk({
      'undo.undo': (args) =>
        args.kind
          ? refuse(
              'conflict',
              'Something newer was changed since ("New protocol for Bo"): undo that first.',
            )
          : refuse('not-found', 'Nothing to undo.'),
    });
    renderShell();
    await userEvent.click(screen.getByRole('button', { name: 'Somewhere' }));
    await userEvent.keyboard('{Control>}z{/Control}');
    expect(await screen.findByText('Nothing to undo.')).toBeTruthy();
    act(() => undoAction({ kind: 'edit', localId: 'p1' }).run());
    expect(await screen.findByText('Could not undo.')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('undo that first');
  });

  it('a delete still in its Undo window is taken back first, without asking main', async () => {
    const desk = installOrderDesk({});
    renderShell();
    const onUndo = vi.fn();
    act(() => {
      usePendingDeleteStore.getState().schedule('p1', 'Ada Lovelace', onUndo);
    });
    expect(screen.getByText('Deleted the protocol for Ada Lovelace.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Somewhere' }));
    await userEvent.keyboard('{Control>}z{/Control}');
    expect(
      await screen.findByText('Undone: Delete of the protocol for Ada Lovelace.'),
    ).toBeTruthy();
    // Its own toast, with an Undo that would do nothing now, is gone.
    expect(screen.queryByText('Deleted the protocol for Ada Lovelace.')).toBeNull();
    expect(usePendingDeleteStore.getState().pending).toEqual({});
    expect(desk.calls).toEqual([]);
  });
});
