/** Where secrets live: the OS keychain in the app, memory in tests of other modules. */
export interface CredentialStore {
  get(account: string): Promise<string | null>;
  set(account: string, secret: string): Promise<void>;
  /** true when a secret was deleted, false when there was none. */
  delete(account: string): Promise<boolean>;
  /** Where the secrets live: 'memory' is for this run only (--memory-keychain, tests). */
  readonly kind?: 'system-keychain' | 'memory';
}

export const DEFAULT_SERVICE_NAME = 'Order Desk';

type Keytar = {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
};

let keytarModule: Promise<Keytar> | null = null;

/** keytar is loaded on first use, so importing this module needs neither D-Bus nor the native addon. */
function loadKeytar(): Promise<Keytar> {
  keytarModule ??= import('keytar').then(
    (m) => ((m as { default?: Keytar }).default ?? m) as Keytar,
  );
  // A failed load is not cached: the next call tries again.
  keytarModule.catch(() => {
    keytarModule = null;
  });
  return keytarModule;
}

/**
 * The OS keychain through keytar (Secret Service on Linux, Keychain on macOS, Credential Vault
 * on Windows). A keychain failure becomes an Error that says the keychain is unavailable; the
 * secret is never part of it.
 */
export class KeytarCredentialStore implements CredentialStore {
  readonly kind = 'system-keychain';
  constructor(private readonly service: string = DEFAULT_SERVICE_NAME) {}

  get(account: string): Promise<string | null> {
    return this.call('read', account, (k) => k.getPassword(this.service, account));
  }

  set(account: string, secret: string): Promise<void> {
    return this.call('save', account, (k) => k.setPassword(this.service, account, secret), secret);
  }

  delete(account: string): Promise<boolean> {
    return this.call('delete', account, (k) => k.deletePassword(this.service, account));
  }

  private async call<T>(
    action: string,
    account: string,
    run: (keytar: Keytar) => Promise<T>,
    secret?: string,
  ): Promise<T> {
    try {
      return await run(await loadKeytar());
    } catch (error) {
      // keytar's own message (e.g. "Cannot autolaunch D-Bus without X11 $DISPLAY") says why.
      // It should never hold the secret; it is redacted all the same.
      const raw = error instanceof Error ? error.message : String(error);
      const why = secret ? raw.split(secret).join('***') : raw;
      throw new Error(
        `The system keychain is unavailable, so the secret for "${account}" could not be ${PAST[action] ?? action}: ${why}. ` +
          'On Linux a Secret Service (GNOME Keyring or KWallet) must be running and unlocked.',
        raw === why ? { cause: error } : undefined,
      );
    }
  }
}

const PAST: Record<string, string> = { read: 'read', save: 'saved', delete: 'deleted' };

/** Keeps secrets in a Map: for tests of modules that need a CredentialStore. */
export class MemoryCredentialStore implements CredentialStore {
  readonly kind = 'memory';
  private readonly secrets = new Map<string, string>();

  async get(account: string): Promise<string | null> {
    return this.secrets.get(account) ?? null;
  }

  async set(account: string, secret: string): Promise<void> {
    this.secrets.set(account, secret);
  }

  async delete(account: string): Promise<boolean> {
    return this.secrets.delete(account);
  }
}
