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

/** What ties a control to its label, hint and error (for a screen reader). */
interface ControlAttributes {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

/**
 * The frame every field shares: its label, its control, then its hint and error, tied to the
 * control (aria-invalid, aria-describedby).
 */
function FieldFrame({
  label,
  error,
  hint,
  id,
  className,
  control,
}: {
  label: string;
  error: string | undefined;
  hint: ReactNode;
  id: string | undefined;
  className: string | undefined;
  control: (attributes: ControlAttributes) => ReactNode;
}) {
  const generated = useId();
  const controlId = id ?? generated;
  const hintId = `${controlId}-hint`;
  const errorId = `${controlId}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ');
  return (
    <div className={`field ${className ?? ''}`}>
      <label htmlFor={controlId} className="field-label">
        {label}
      </label>
      <div className="field-control">
        {control({
          id: controlId,
          'aria-invalid': error ? true : undefined,
          'aria-describedby': describedBy || undefined,
        })}
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

/** A labelled input whose error is tied to it (aria-invalid, aria-describedby). */
export function Field({ label, error, hint, addon, id, className, ref, ...input }: FieldProps) {
  return (
    <FieldFrame
      label={label}
      error={error}
      hint={hint}
      id={id}
      className={className}
      control={(attributes) => (
        <>
          {addon}
          <input ref={ref} className="input" {...attributes} {...input} />
        </>
      )}
    />
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
  return (
    <FieldFrame
      label={label}
      error={error}
      hint={hint}
      id={id}
      className={className}
      control={(attributes) => (
        <select ref={ref} className="input select" {...attributes} {...select}>
          {children}
        </select>
      )}
    />
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
