import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Clock } from '../clock';
import { Connection, type ConnectionInput } from './connection';
import type { Db } from '../db/db';
import { StoreError } from '../db/errors';
import { flag, parseRow, prepareCached, runTransaction } from '../db/rows';

/** A connection as stored: the record of credentials/connection.ts (no secret) plus bookkeeping. */
export const StoredConnection = Connection.extend({ createdAt: z.int(), isActive: z.boolean() });
export type StoredConnection = z.output<typeof StoredConnection>;

const Row = z
  .object({
    id: z.string(),
    kind: z.string(),
    label: z.string(),
    base_url: z.string(),
    auth_url: z.string(),
    client_id: z.string(),
    created_at: z.int(),
    is_active: flag,
  })
  .transform((r) => ({
    id: r.id,
    kind: r.kind,
    label: r.label,
    baseUrl: r.base_url,
    authUrl: r.auth_url,
    clientId: r.client_id,
    createdAt: r.created_at,
    isActive: r.is_active,
  }))
  .pipe(StoredConnection);

/**
 * The saved connections, in the app store (app.db). Each connection's mirror and work live in a
 * store file of its own (db/store-files.ts), so making another one active empties nothing.
 */
export class ConnectionsRepo {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** Adds a connection (validated and normalised by the shared Connection schema); inactive. */
  add(input: Omit<ConnectionInput, 'id'> & { id?: string }): StoredConnection {
    const c = Connection.parse({ ...input, id: input.id ?? randomUUID() });
    prepareCached(
      this.db,
      `INSERT INTO connections (id, kind, label, base_url, auth_url, client_id, created_at, is_active)
       VALUES (?, ?, ?, ?, ?, ?, ?, 0)`,
    ).run(c.id, c.kind, c.label, c.baseUrl, c.authUrl, c.clientId, this.clock.now());
    return this.require(c.id);
  }

  get(id: string): StoredConnection | null {
    const row = prepareCached(this.db, 'SELECT * FROM connections WHERE id = ?').get(id);
    return row ? parseRow(Row, row, 'connections', `id=${id}`) : null;
  }

  list(): StoredConnection[] {
    return prepareCached(this.db, 'SELECT * FROM connections ORDER BY created_at, id')
      .all()
      .map((row) => parseRow(Row, row, 'connections', `id=${(row as { id: string }).id}`));
  }

  active(): StoredConnection | null {
    const row = prepareCached(this.db, 'SELECT * FROM connections WHERE is_active = 1').get();
    return row ? parseRow(Row, row, 'connections', 'active') : null;
  }

  /** Changes label, URLs, kind or client id; the id and the active flag stay. */
  update(id: string, patch: Partial<Omit<ConnectionInput, 'id'>>): StoredConnection {
    const current = this.require(id);
    const c = Connection.parse({ ...current, ...patch, id });
    prepareCached(
      this.db,
      `UPDATE connections SET kind = ?, label = ?, base_url = ?, auth_url = ?, client_id = ? WHERE id = ?`,
    ).run(c.kind, c.label, c.baseUrl, c.authUrl, c.clientId, id);
    return this.require(id);
  }

  /** Removes an inactive connection (its keychain secret is the caller's to delete). */
  remove(id: string): boolean {
    if (this.get(id)?.isActive) {
      throw new StoreError(
        'invalid-state',
        'The active connection cannot be removed: activate another one first.',
      );
    }
    return prepareCached(this.db, 'DELETE FROM connections WHERE id = ?').run(id).changes === 1;
  }

  /** Makes `id` the active connection (the others inactive). */
  setActive(id: string): StoredConnection {
    runTransaction(this.db, () => {
      if (this.require(id).isActive) return;
      prepareCached(this.db, 'UPDATE connections SET is_active = 0 WHERE is_active = 1').run();
      prepareCached(this.db, 'UPDATE connections SET is_active = 1 WHERE id = ?').run(id);
    });
    return this.require(id);
  }

  /**
   * Adds a connection as stored elsewhere (the store of an earlier version), keeping its id,
   * creation time and active flag; one already saved under that id is left as it is.
   */
  adopt(connection: StoredConnection): void {
    const c = StoredConnection.parse(connection);
    runTransaction(this.db, () => {
      if (this.get(c.id)) return;
      const active = c.isActive && this.active() === null;
      prepareCached(
        this.db,
        `INSERT INTO connections (id, kind, label, base_url, auth_url, client_id, created_at, is_active)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(c.id, c.kind, c.label, c.baseUrl, c.authUrl, c.clientId, c.createdAt, active ? 1 : 0);
    });
  }

  private require(id: string): StoredConnection {
    const c = this.get(id);
    if (!c) throw new StoreError('not-found', `No connection ${id}.`);
    return c;
  }
}
