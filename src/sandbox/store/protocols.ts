import { Protocol, type ListProtocolsQuery } from '@shared/api';
import type { Db } from './db';
import { prepareCached, readPage } from './page';

/** Text the protocol search matches: "first last", lower case. */
export const customerName = (p: Pick<Protocol, 'customer'>): string =>
  `${p.customer.firstName} ${p.customer.lastName}`.toLowerCase();

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export class ProtocolStore {
  constructor(private readonly db: Db) {}

  insert(partnerId: string, protocol: Protocol): void {
    prepareCached(
      this.db,
      'INSERT INTO protocols (id, partner_id, customer_name, body) VALUES (?, ?, ?, ?)',
    ).run(protocol.id, partnerId, customerName(protocol), JSON.stringify(protocol));
  }

  get(partnerId: string, id: string): Protocol | undefined {
    const row = prepareCached(
      this.db,
      'SELECT body FROM protocols WHERE partner_id = ? AND id = ?',
    ).get(partnerId, id) as { body: string } | undefined;
    return row ? Protocol.parse(JSON.parse(row.body)) : undefined;
  }

  /** Replaces the stored protocol; false when it does not exist. */
  replace(partnerId: string, protocol: Protocol): boolean {
    const info = prepareCached(
      this.db,
      'UPDATE protocols SET customer_name = ?, body = ? WHERE partner_id = ? AND id = ?',
    ).run(customerName(protocol), JSON.stringify(protocol), partnerId, protocol.id);
    return info.changes === 1;
  }

  delete(partnerId: string, id: string): boolean {
    return (
      prepareCached(this.db, 'DELETE FROM protocols WHERE partner_id = ? AND id = ?').run(
        partnerId,
        id,
      ).changes === 1
    );
  }

  count(partnerId: string): number {
    return (
      prepareCached(this.db, 'SELECT COUNT(*) AS n FROM protocols WHERE partner_id = ?').get(
        partnerId,
      ) as {
        n: number;
      }
    ).n;
  }

  /** Newest first; `search` matches a part of the customer's name, case-insensitively. */
  list(
    partnerId: string,
    query: ListProtocolsQuery,
  ): { protocols: Protocol[]; cursor: string | null } {
    const where = ['partner_id = ?'];
    const params: unknown[] = [partnerId];
    const search = query.search?.trim().toLowerCase().replace(/\s+/g, ' ');
    if (search) {
      where.push("customer_name LIKE ? ESCAPE '\\'");
      params.push(`%${escapeLike(search)}%`);
    }
    const page = readPage(
      this.db,
      { resource: 'protocols', table: 'protocols', key: 'seq', descending: true, where, params },
      query,
    );
    return {
      protocols: page.bodies.map((b) => Protocol.parse(JSON.parse(b))),
      cursor: page.cursor,
    };
  }
}
