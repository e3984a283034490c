/** Money as whole cents, so that sums are exact. The spec's amounts have two decimals. */
export type Cents = number;

export function moneyToCents(money: string): Cents {
  const m = /^(-?)(\d+)\.(\d{2})$/.exec(money);
  if (!m) throw new Error(`not a money amount with two decimals: ${JSON.stringify(money)}`);
  const cents = Number(m[2]) * 100 + Number(m[3]);
  return m[1] === '-' ? -cents : cents;
}

export function centsToMoney(cents: Cents): string {
  if (!Number.isSafeInteger(cents)) throw new Error(`not a whole number of cents: ${cents}`);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** Rounds a non-negative fraction of cents half up, e.g. numerator/denominator = 10.5 -> 11. */
export function roundHalfUp(numerator: number, denominator: number): Cents {
  return Math.floor((2 * numerator + denominator) / (2 * denominator));
}
