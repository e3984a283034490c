import { useEffect } from 'react';

/** Calls `apply` with `value` once it has stayed the same for `ms` milliseconds. */
export function useDebounced<T>(value: T, ms: number, apply: (value: T) => void): void {
  useEffect(() => {
    const timer = setTimeout(() => apply(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms, apply]);
}
