import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A random per-launch token (256 bits, URL-safe). */
export const newToken = (): string => randomBytes(32).toString('base64url');

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/** Compares in constant time whatever the lengths (both sides are hashed first). */
export function tokenMatches(expected: string, given: unknown): boolean {
  if (typeof given !== 'string') return false;
  return timingSafeEqual(digest(expected), digest(given)) && given.length === expected.length;
}
