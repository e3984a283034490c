import { Search, X } from 'lucide-react';

interface SearchFieldProps {
  id: string;
  /** The field's accessible name (visually hidden). */
  label: string;
  placeholder: string;
  value: string;
  onChange(value: string): void;
  /** The contract's limit: the field does not take more. */
  maxLength: number;
}

/** A list's search box: icon, clear button, and the limit said when it is reached. */
export function SearchField({
  id,
  label,
  placeholder,
  value,
  onChange,
  maxLength,
}: SearchFieldProps) {
  const atLimit = value.length >= maxLength;
  return (
    <div className="search">
      <Search aria-hidden="true" size={16} className="search-icon" />
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <input
        id={id}
        className="input search-input"
        type="search"
        placeholder={placeholder}
        value={value}
        maxLength={maxLength}
        aria-describedby={atLimit ? `${id}-limit` : undefined}
        onChange={(e) => onChange(e.target.value)}
        autoComplete="off"
        spellCheck={false}
      />
      {atLimit && (
        <span id={`${id}-limit`} className="visually-hidden">
          At most {maxLength} characters.
        </span>
      )}
      {value && (
        <button
          type="button"
          className="icon-button search-clear"
          aria-label="Clear search"
          onClick={() => onChange('')}
        >
          <X aria-hidden="true" size={16} />
        </button>
      )}
    </div>
  );
}
