import type { ReactNode } from 'react';

/**
 * A filter of the protocol list as a native select with its label, in the filter row (the
 * product and refill filters): keyboard- and screen-reader-ready as it is.
 */
export function FilterSelect({
  id,
  label,
  value,
  onChange,
  children,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** The options. */
  children: ReactNode;
}) {
  return (
    <div className="protocol-select-filter">
      <label htmlFor={id} className="protocol-select-label muted">
        {label}
      </label>
      <select id={id} className="input" value={value} onChange={(e) => onChange(e.target.value)}>
        {children}
      </select>
    </div>
  );
}
