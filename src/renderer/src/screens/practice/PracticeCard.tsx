import type { ReactNode } from 'react';
import type { PracticeCommand } from './use-practice-command';

/** A card's failure, said at once to a screen reader. */
export function PracticeError({ error }: { error: string | null }) {
  if (!error) return null;
  return (
    <p className="field-error" role="alert">
      {error}
    </p>
  );
}

export interface PracticeCardProps {
  /** Names the heading's id: `${id}-heading`, which labels the card. */
  id: string;
  title: string;
  hint: ReactNode;
  /** The form's accessible name. */
  formLabel: string;
  submitLabel: string;
  primary?: boolean;
  /** False while the fields leave nothing to submit (or the card is switched off). */
  canSubmit: boolean;
  /** The card's command: whether it runs, and why it failed. */
  command: Pick<PracticeCommand<unknown>, 'busy' | 'error'>;
  /** What the last command did, in a sentence; said by the card's status region. */
  result: ReactNode;
  onSubmit(): void;
  /** The form's fields. */
  children: ReactNode;
}

/**
 * A practice control: a headed card whose form runs one command, its outcome said by a status
 * region and its failure by an alert.
 */
export function PracticeCard({
  id,
  title,
  hint,
  formLabel,
  submitLabel,
  primary = false,
  canSubmit,
  command: { busy, error },
  result,
  onSubmit,
  children,
}: PracticeCardProps) {
  const headingId = `${id}-heading`;
  return (
    <section className="card" aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      <p className="field-hint">{hint}</p>
      <form
        className="practice-form"
        aria-label={formLabel}
        onSubmit={(event) => {
          event.preventDefault();
          onSubmit();
        }}
      >
        {children}
        <div className="form-actions form-actions-start">
          <button
            type="submit"
            className={primary ? 'button button-primary' : 'button'}
            disabled={!canSubmit || busy}
            aria-busy={busy}
          >
            {submitLabel}
          </button>
        </div>
      </form>
      <div role="status" className="practice-result">
        {result ? <p>{result}</p> : null}
      </div>
      <PracticeError error={error} />
    </section>
  );
}
