import { z } from 'zod';

/**
 * How every store file is encrypted: SQLCipher 4's format (AES-256-CBC with an HMAC-SHA512 per
 * page), opened with a raw 256-bit key. The key is random, so it is used as it is: no passphrase
 * derivation (docs/security.md, "Encryption at rest"). The app and the embedded sandbox both open
 * their files with these statements.
 */
export const StoreKey = z
  .string()
  .regex(/^[0-9a-f]{64}$/, '64 lowercase hexadecimal digits')
  .brand<'StoreKey'>();
export type StoreKey = z.infer<typeof StoreKey>;

/** The cipher's settings, before the key: SQLCipher 4's own. */
export const CIPHER_SETTINGS = ["cipher = 'sqlcipher'", 'legacy = 4'] as const;

/** The key as SQLite3 Multiple Ciphers takes a raw key (not a passphrase) in PRAGMA key. */
export const rawKey = (key: StoreKey): string => `"x'${key}'"`;

/** The PRAGMA statements that open (or create) an encrypted file, run before anything else. */
export const cipherPragmas = (key: StoreKey): string[] => [
  ...CIPHER_SETTINGS,
  `key = ${rawKey(key)}`,
];
