/** What the benches share about their flags and their medians. */

/**
 * The middle value of `xs`, the upper one of an even count: how the benches take their medians
 * (renderer-startup and renderer-batch average the two middle values instead).
 */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) throw new Error('the median of no values');
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
}

/** The `p`th percentile of `xs` (nearest rank): p95 of 20 values is the 19th smallest. */
export function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) throw new Error('a percentile of no values');
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[
    Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  ]!;
}

/** Flags that must be positive integers, as numbers (`--name takes a positive integer` if not). */
export function positiveIntegers<K extends string>(flags: Record<K, unknown>): Record<K, number> {
  const out = {} as Record<K, number>;
  for (const [name, value] of Object.entries(flags) as [K, unknown][]) {
    const n = Number(value);
    if (!Number.isInteger(n) || n <= 0) throw new Error(`--${name} takes a positive integer`);
    out[name] = n;
  }
  return out;
}
