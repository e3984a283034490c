import type { CredentialStore } from './keychain';

/**
 * A failure of the keychain itself (no Secret Service, locked keyring, native addon missing),
 * as opposed to a secret that is simply absent. The message says why; it never holds a secret.
 */
export class KeychainError extends Error {
  override readonly name = 'KeychainError';
}

export const isKeychainError = (error: unknown): error is KeychainError =>
  error instanceof KeychainError;

const wrap = (error: unknown): KeychainError =>
  error instanceof KeychainError
    ? error
    : new KeychainError(
        error instanceof Error ? error.message : 'The system keychain is unavailable.',
        { cause: error },
      );

async function guarded<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw wrap(error);
  }
}

/** The same store, whose every failure is a KeychainError. */
export function guardKeychain(store: CredentialStore): CredentialStore {
  return {
    ...(store.kind ? { kind: store.kind } : {}),
    get: (account) => guarded(() => store.get(account)),
    set: (account, secret) => guarded(() => store.set(account, secret)),
    delete: (account) => guarded(() => store.delete(account)),
  };
}
