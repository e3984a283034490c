import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

// Random bytes drawn from the CSPRNG in blocks: one call per 4 KiB instead of one per id.
let pool = Buffer.alloc(0);
let offset = 0;
function nextRandomByte(): number {
  if (offset >= pool.length) {
    pool = randomBytes(4096);
    offset = 0;
  }
  return pool[offset++]!;
}

/** `ord_` + a time-ordered, random identifier (Crockford base32), e.g. ord_01jd3x9k2m7f4q8r5t6v. */
export function newId(prefix: string, nowMs: number): string {
  let time = '';
  let t = Math.floor(nowMs);
  for (let i = 0; i < 9; i++) {
    time = ALPHABET[t % 32] + time;
    t = Math.floor(t / 32);
  }
  let rand = '';
  for (let i = 0; i < 11; i++) rand += ALPHABET[nextRandomByte() % 32];
  return `${prefix}_${time}${rand}`;
}
