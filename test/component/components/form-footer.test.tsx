import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { FormFooter, type FormFeedback } from '@renderer/components/FormFooter';

function renderFooter(
  feedback: FormFeedback | null,
  more: { dirty?: boolean; submitting?: boolean } = {},
) {
  const onDiscard = vi.fn();
  const view = render(
    <form aria-label="Settings">
      <input aria-label="Label" />
      <FormFooter
        feedback={feedback}
        dirty={more.dirty ?? true}
        submitting={more.submitting ?? false}
        onDiscard={onDiscard}
      />
    </form>,
  );
  return { onDiscard, ...view };
}

describe('FormFooter: the end of a settings form', () => {
  it('says a success in the status line, and discards on request', async () => {
    const { onDiscard } = renderFooter({ kind: 'success', text: 'Settings saved.' });
    expect(screen.getByRole('status').textContent).toContain('Settings saved.');
    expect(screen.queryByRole('alert')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Discard changes' }));
    expect(onDiscard).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: 'Save changes' }).getAttribute('type')).toBe(
      'submit',
    );
  });

  it('an error is an alert that takes the focus, unless it is on a refused field', () => {
    const error: FormFeedback = { kind: 'error', text: 'Not saved.', detail: 'The disk is full.' };
    const { rerender } = renderFooter(null);
    rerender(
      <form aria-label="Settings">
        <input aria-label="Label" />
        <FormFooter feedback={error} dirty submitting={false} onDiscard={() => undefined} />
      </form>,
    );
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toBe('Not saved.The disk is full.');
    expect(document.activeElement).toBe(alert);

    const field = screen.getByRole('textbox', { name: 'Label' });
    field.setAttribute('aria-invalid', 'true');
    field.focus();
    rerender(
      <form aria-label="Settings">
        <input aria-label="Label" aria-invalid="true" />
        <FormFooter feedback={{ ...error }} dirty submitting={false} onDiscard={() => undefined} />
      </form>,
    );
    expect(document.activeElement).toBe(field);
  });

  it('nothing to discard, or a save under way: the buttons say so', () => {
    const { unmount } = renderFooter(null, { dirty: false });
    expect(
      (screen.getByRole('button', { name: 'Discard changes' }) as HTMLButtonElement).disabled,
    ).toBe(true);
    unmount();
    renderFooter(null, { submitting: true });
    const save = screen.getByRole('button', { name: 'Save changes' });
    expect((save as HTMLButtonElement).disabled).toBe(true);
    expect(save.getAttribute('aria-busy')).toBe('true');
  });
});
