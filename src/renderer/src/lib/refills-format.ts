/**
 * Whole days until the supply runs out (refills.due floors them), in words: "12 days", "Less than
 * a day" (0), "Ran out 3 days ago".
 */
export function daysLeftText(daysLeft: number): string {
  if (daysLeft === 0) return 'Less than a day';
  const n = Math.abs(daysLeft);
  const days = `${n} ${n === 1 ? 'day' : 'days'}`;
  return daysLeft > 0 ? days : `Ran out ${days} ago`;
}
