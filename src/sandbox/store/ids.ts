import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/** `ord_` + a time-ordered, random identifier (Crockford base32), e.g. ord_01jd3x9k2m7f4q8r5t6v. */
export function newId(prefix: string, nowMs: number): string {
  let time = '';
  let t = Math.floor(nowMs);
  for (let i = 0; i < 9; i++) {
    time = ALPHABET[t % 32] + time;
    t = Math.floor(t / 32);
  }
  const bytes = randomBytes(11);
  let rand = '';
  for (const b of bytes) rand += ALPHABET[b % 32];
  return `${prefix}_${time}${rand}`;
}
