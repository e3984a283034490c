import {
  useId,
  type InputHTMLAttributes,
  type ReactNode,
  type Ref,
  type SelectHTMLAttributes,
} from 'react';

export interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
  /** Something shown beside the input (a color swatch). */
  addon?: ReactNode;
  ref?: Ref<HTMLInputElement>;
}

/** A labelled input whose error is tied to it (aria-invalid, aria-describedby). */
export function Field({ label, error, hint, addon, id, className, ref, ...input }: FieldProps) {
  const generated = useId();
  const inputId = id ?? generated;
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ');
  return (
    <div className={`field ${className ?? ''}`}>
      <label htmlFor={inputId} className="field-label">
        {label}
      </label>
      <div className="field-control">
        {addon}
        <input
          ref={ref}
          id={inputId}
          className="input"
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy || undefined}
          {...input}
        />
      </div>
      {hint && (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="field-error">
          {sentence(error)}
        </p>
      )}
    </div>
  );
}

export interface SelectFieldProps extends SelectHTMLAttributes<HTMLSelectElement> {
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
  ref?: Ref<HTMLSelectElement>;
}

/** A labelled choice from a list, its error tied to it as Field ties an input's. */
export function SelectField({
  label,
  error,
  hint,
  id,
  className,
  ref,
  children,
  ...select
}: SelectFieldProps) {
  const generated = useId();
  const selectId = id ?? generated;
  const hintId = `${selectId}-hint`;
  const errorId = `${selectId}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ');
  return (
    <div className={`field ${className ?? ''}`}>
      <label htmlFor={selectId} className="field-label">
        {label}
      </label>
      <div className="field-control">
        <select
          ref={ref}
          id={selectId}
          className="input select"
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy || undefined}
          {...select}
        >
          {children}
        </select>
      </div>
      {hint && (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="field-error">
          {sentence(error)}
        </p>
      )}
    </div>
  );
}

/**
 * The contract's messages are terse and lower-case ("required", "email address", "an absolute
 * http or https URL"); on screen a message is a sentence that says what to do.
 */
export function sentence(message: string): string {
  let text = message;
  if (/^(an? )/i.test(text)) text = `Enter ${text}`;
  else if (/^(email address|hex color)/i.test(text))
    text = `Enter ${/^[aeiou]/i.test(text) ? 'an' : 'a'} ${text}`;
  return text.charAt(0).toUpperCase() + text.slice(1);
}
