import { z } from 'zod';
import { RefillsQuery } from '@shared/work-views';

export const WITHIN_DAYS_PRESETS = [7, 14, 30] as const;
export const DEFAULT_WITHIN_DAYS = 30;

const MESSAGE = 'Enter a whole number of days from 0 to 365.';

/**
 * What the user types in "Days ahead", checked with the contract's own rule for refills.due
 * (a whole number from 0 to 365), with one message that says what to type.
 */
export const WithinDaysText = z
  .string()
  .trim()
  .regex(/^\d{1,3}$/, MESSAGE)
  .transform(Number)
  .pipe(RefillsQuery.shape.withinDays);

export function parseWithinDays(
  text: string,
): { ok: true; value: number } | { ok: false; message: string } {
  const parsed = WithinDaysText.safeParse(text, { error: () => MESSAGE });
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, message: MESSAGE };
}
