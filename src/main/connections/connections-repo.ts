import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Clock } from '../clock';
import { Connection, type ConnectionInput } from './connection';
import type { Db } from '../store/db';
import { StoreError } from '../store/errors';
import { flag, parseRow, prepareCached, runTransaction } from '../store/rows';

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

/** Tables that mirror one server, emptied when the active connection changes. */
const MIRROR_TABLES = [
  'jobs',
  'batches',
  'protocols',
  'order_status_changes',
  'orders',
  'products',
  'shipping_methods',
  'sync_state',
];

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

  /**
   * Makes `id` the active connection. The mirror (products, shipping methods, protocols, jobs,
   * orders, batches, cursors) belongs to one server, so switching to another connection empties
   * it in the same transaction. When protocol changes wait to be sent or a batch is unfinished,
   * the switch is refused ('pending-work') unless `discardPendingWork` is set.
   */
  setActive(id: string, options: { discardPendingWork?: boolean } = {}): StoredConnection {
    runTransaction(this.db, () => {
      const target = this.require(id);
      if (target.isActive) return;
      const pending = this.pendingWork();
      if ((pending.protocolChanges > 0 || pending.batches > 0) && !options.discardPendingWork) {
        throw new StoreError(
          'pending-work',
          `Switching connection would discard ${pending.protocolChanges} unsent protocol change(s) and ${pending.batches} unfinished batch(es).`,
        );
      }
      for (const table of MIRROR_TABLES) this.db.prepare(`DELETE FROM ${table}`).run();
      prepareCached(this.db, 'UPDATE connections SET is_active = 0 WHERE is_active = 1').run();
      prepareCached(this.db, 'UPDATE connections SET is_active = 1 WHERE id = ?').run(id);
    });
    return this.require(id);
  }

  /** Work that switching connection would throw away. */
  pendingWork(): { protocolChanges: number; batches: number } {
    const row = prepareCached(
      this.db,
      `SELECT (SELECT COUNT(*) FROM jobs WHERE kind = 'protocol' AND state <> 'done') AS changes,
              (SELECT COUNT(*) FROM batches WHERE state <> 'done') AS batches`,
    ).get() as { changes: number; batches: number };
    return { protocolChanges: row.changes, batches: row.batches };
  }

  private require(id: string): StoredConnection {
    const c = this.get(id);
    if (!c) throw new StoreError('not-found', `No connection ${id}.`);
    return c;
  }
}
