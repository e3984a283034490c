import { CheckCircle2, Loader2 } from 'lucide-react';
import { useEffect, useRef } from 'react';

/** What a settings form says after Save: success or info in a status line, an error as an alert. */
export type FormFeedback =
  | { kind: 'success' | 'info'; text: string }
  | { kind: 'error'; text: string; detail: string | null };

/**
 * The end of a settings form: the feedback of the last Save (a polite status region that is
 * always there, so screen readers hear what lands in it; an error as an alert), then Discard
 * changes and Save. After a failed Save the focus goes to the error (Save, disabled while it
 * ran, had dropped it to the page), unless the form put it on the first refused field.
 */
export function FormFooter({
  feedback,
  dirty,
  submitting,
  onDiscard,
  saveLabel = 'Save changes',
}: {
  feedback: FormFeedback | null;
  dirty: boolean;
  submitting: boolean;
  onDiscard: () => void;
  saveLabel?: string;
}) {
  const alert = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (feedback?.kind !== 'error') return;
    // Kept on a refused field the form focused; anywhere else (the body, a disabled Save) it goes
    // to the error, so a keyboard user is where the problem is told.
    if (document.activeElement?.getAttribute('aria-invalid') !== 'true') alert.current?.focus();
  }, [feedback]);
  return (
    <>
      <div role="status" className="form-status">
        {feedback && feedback.kind !== 'error' && (
          <p className={`notice notice-${feedback.kind}`}>
            {feedback.kind === 'success' && <CheckCircle2 aria-hidden="true" size={18} />}{' '}
            {feedback.text}
          </p>
        )}
      </div>
      {feedback?.kind === 'error' && (
        <div className="notice notice-error" role="alert" tabIndex={-1} ref={alert}>
          <p className="notice-title">{feedback.text}</p>
          {feedback.detail && <p>{feedback.detail}</p>}
        </div>
      )}
      <div className="form-actions">
        <button
          type="button"
          className="button"
          disabled={!dirty || submitting}
          onClick={onDiscard}
        >
          Discard changes
        </button>
        <button
          type="submit"
          className="button button-primary"
          disabled={submitting}
          aria-busy={submitting}
        >
          {submitting && <Loader2 aria-hidden="true" size={16} className="spin" />}
          {saveLabel}
        </button>
      </div>
    </>
  );
}
