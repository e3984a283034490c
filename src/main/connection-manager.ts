import { randomBytes } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import type { PartnerSettings } from '@shared/api';
import type { ConnectionRemoval } from '@shared/store-views';
import { createApiClient } from './api/client';
import type { Clock } from './clock';
import { EMBEDDED_CONNECTION_ID, type EmbeddedConnection } from './embedded-sandbox';
import type { Logger, Redactor } from './logging';
import { StoreError } from './db';
import type { LocalStore } from './stores';
import type { AppStore } from './stores/app-store';
import { connectionStoreFile, deleteStoreFiles, SIDE_FILES } from './db/store-files';
import { unsentChanges } from './stores/local-store-recovery';
import {
  Connection,
  deleteConnectionSecret,
  readConnectionSecret,
  saveConnectionSecret,
  tokenUrl,
  type ConnectionInput,
} from './connections/connection';
import type { StoredConnection } from './connections/connections-repo';
import type { CredentialStore } from './connections/keychain';
import { KeychainError } from './connections/keychain-guard';
import { TokenManager } from './connections/token-manager';

/** A partner connection as the user enters it (the embedded one is made by useEmbedded()). */
export type NewConnection = Omit<ConnectionInput, 'id' | 'kind'> & {
  kind: 'partner-sandbox' | 'production';
};

export interface ConnectionManagerOptions {
  app: Pick<AppStore, 'connections'>;
  /** The app's data folder (absolute): each connection's store file is in it. */
  dataDir: string;
  credentials: CredentialStore;
  log: Logger;
  redactor: Redactor;
  /** Schedules (the probe's token). */
  steady: Clock;
  fetch?: typeof fetch;
  /** Makes a saved connection the active one (ActiveConnection.activate). */
  activate(id: string, settings?: PartnerSettings | null): Promise<StoredConnection>;
  /** The embedded sandbox, started once per run. */
  startEmbedded(): Promise<EmbeddedConnection>;
  /** Opens a connection's store (checked; recovered if damaged), to count what it holds. */
  openStore(connection: StoredConnection): LocalStore;
}

/**
 * The saved connections: testing, adding, editing, the embedded sandbox, and removing one with
 * its keychain secret and store file. Making one active is the active connection's
 * (active-connection.ts); this is what the Connection screen asks of the saved ones.
 */
export class ConnectionManager {
  constructor(private readonly o: ConnectionManagerOptions) {}

  list(): StoredConnection[] {
    return this.o.app.connections.list();
  }

  /**
   * Checks a partner connection without saving anything: a token, then the partner settings.
   * Throws the client's ApiClientError (wrong credentials, unreachable server) for the UI.
   */
  async test(input: NewConnection, secret: string): Promise<{ partnerName: string }> {
    const settings = await this.probe(input, secret);
    return { partnerName: settings.name };
  }

  /** A token, then the partner settings, with these details; nothing is saved. */
  private async probe(input: NewConnection, secret: string): Promise<PartnerSettings> {
    const connection = Connection.parse({ ...input, id: 'probe' });
    const tokens = new TokenManager({
      tokenUrl: tokenUrl(connection),
      clientId: connection.clientId,
      clientSecret: async () => secret,
      ...(this.o.fetch ? { fetch: this.o.fetch } : {}),
      clock: this.o.steady,
    });
    const client = createApiClient({
      baseUrl: connection.baseUrl,
      tokens,
      ...(this.o.fetch ? { fetch: this.o.fetch } : {}),
      clock: this.o.steady,
      retries: 0,
    });
    return client.getPartnerSettings();
  }

  /** Tests, then saves a partner connection (its secret in the keychain) and makes it active. */
  async connect(input: NewConnection, secret: string): Promise<StoredConnection> {
    // Issue 12: adding a connection again (same label) updates the saved one, never a duplicate.
    const sameLabel = this.savedWithLabel(input.label);
    if (sameLabel) return this.update(sameLabel.id, input, secret);
    const settings = await this.probe(input, secret);
    const id = `conn_${randomBytes(6).toString('hex')}`;
    const connection = Connection.parse({ ...input, id });
    await saveConnectionSecret(this.o.credentials, connection, secret);
    this.o.redactor.add(secret);
    const stored = this.o.app.connections.add(connection);
    try {
      return await this.o.activate(stored.id, settings);
    } catch (error) {
      this.o.app.connections.remove(stored.id);
      await deleteConnectionSecret(this.o.credentials, connection).catch(() => false);
      throw error;
    }
  }

  // --- Issue 12 (polish): editing a saved connection, a secret missing from the keychain -------

  /** Where client secrets are kept: the system keychain, or memory for this run only. */
  get secretStorage(): 'system-keychain' | 'memory' {
    return this.o.credentials.kind ?? 'system-keychain';
  }

  /** True when a saved partner connection has no client secret in the keychain (never throws). */
  async secretMissing(connection: StoredConnection): Promise<boolean> {
    if (connection.kind === 'embedded') return false;
    try {
      return (await readConnectionSecret(this.o.credentials, connection)) === null;
    } catch {
      return false; // the keychain itself failed: that is said when the secret is used
    }
  }

  /** The saved partner connection with this label (case and spaces aside), if there is one. */
  private savedWithLabel(label: string): StoredConnection | null {
    const key = label.trim().toLowerCase();
    return (
      this.o.app.connections
        .list()
        .find((c) => c.kind !== 'embedded' && c.label.trim().toLowerCase() === key) ?? null
    );
  }

  /**
   * Changes a saved partner connection (label, URLs, client id) and, when given, its client
   * secret; without one the stored secret is kept (it must exist). The details are tested first;
   * nothing is saved when the server refuses them. The connection is then made active.
   */
  async update(
    id: string,
    input: NewConnection,
    secret: string | undefined,
  ): Promise<StoredConnection> {
    const current = this.o.app.connections.get(id);
    if (!current) throw new StoreError('not-found', 'This connection is no longer saved.');
    if (current.kind === 'embedded')
      throw new StoreError('invalid-state', 'The local sandbox has no details to edit.');
    const other = this.savedWithLabel(input.label);
    if (other && other.id !== id)
      throw new StoreError(
        'invalid-state',
        `Another saved connection is called "${other.label}": choose another label.`,
      );
    const stored = secret ?? (await readConnectionSecret(this.o.credentials, current));
    if (stored === null)
      throw new KeychainError(
        `The client secret of "${current.label}" is missing from the keychain: enter it again.`,
      );
    const next = Connection.parse({ ...input, id });
    const settings = await this.probe(input, stored);
    await saveConnectionSecret(this.o.credentials, next, stored);
    this.o.redactor.add(stored);
    if (next.clientId !== current.clientId)
      await deleteConnectionSecret(this.o.credentials, current).catch(() => false);
    this.o.app.connections.update(id, input);
    return this.o.activate(id, settings);
  }

  // --- end of issue 12 (polish) --------------------------------------------------------------

  /** Starts the embedded sandbox (once per run) and makes it the active connection. */
  async useEmbedded(): Promise<StoredConnection> {
    const embedded = await this.o.startEmbedded();
    const { connection } = embedded;
    const existing = this.o.app.connections.get(EMBEDDED_CONNECTION_ID);
    if (existing) this.o.app.connections.update(existing.id, connection);
    else this.o.app.connections.add(connection);
    return this.o.activate(EMBEDDED_CONNECTION_ID);
  }

  /**
   * What removing an inactive connection would delete: its store file and what it holds (read
   * from the file, which is checked, and recovered if damaged, as at any open).
   */
  removal(id: string): ConnectionRemoval {
    const connection = this.o.app.connections.get(id);
    if (!connection) throw new StoreError('not-found', 'This connection is no longer saved.');
    refuseActive(connection);
    const file = connectionStoreFile(this.o.dataDir, id);
    const view: ConnectionRemoval = {
      id,
      label: connection.label,
      storeFile: file,
      bytes: 0,
      protocols: 0,
      unsentChanges: 0,
      batches: 0,
      unfinishedBatches: 0,
      orders: 0,
    };
    if (!existsSync(file)) return view;
    const store = this.o.openStore(connection);
    try {
      const batches = store.batches.list();
      Object.assign(view, {
        protocols: store.protocols.count({ includeDeleted: true }),
        unsentChanges: unsentChanges(store),
        batches: batches.length,
        unfinishedBatches: batches.filter((b) => b.state !== 'done').length,
        orders: store.orders.count(),
      });
    } finally {
      store.close();
    }
    view.bytes = [file, ...SIDE_FILES.map((s) => file + s)]
      .filter(existsSync)
      .reduce((n, f) => n + statSync(f).size, 0);
    return view;
  }

  /**
   * Removes an inactive connection, its keychain secret and its store file (what removal()
   * listed: the user confirmed it). Files of it kept aside after damage stay where they are.
   */
  async remove(id: string): Promise<boolean> {
    const connection = this.o.app.connections.get(id);
    if (!connection) return false;
    refuseActive(connection);
    deleteStoreFiles(connectionStoreFile(this.o.dataDir, id));
    if (!this.o.app.connections.remove(id)) return false;
    await deleteConnectionSecret(this.o.credentials, connection).catch(() => false);
    this.o.log.info(`removed the connection "${connection.label}" and its store`);
    return true;
  }
}

function refuseActive(connection: StoredConnection): void {
  if (connection.isActive)
    throw new StoreError(
      'invalid-state',
      'The active connection cannot be removed: switch to another one first.',
    );
}
