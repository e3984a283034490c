import type { ProtocolRead, ProtocolRequest } from '../../shared/api';
import type { ApiClient } from '../api/client';
import type { LocalStore } from '../store';
import { mayBeCreatedFrom, sameContent } from './protocol-content';

export interface FindCreatedOptions {
  store: LocalStore;
  client: Pick<ApiClient, 'listProtocols'>;
  /** The local protocol whose create is in doubt. */
  localId: string;
  /** What was sent. */
  sent: ProtocolRequest;
  /** When it was sent (local epoch ms). */
  sentAt: number;
  /** How far the server's clock may be behind ours. */
  skewMs: number;
  /** A walk longer than this proves nothing. Default 20 pages of 100. */
  maxPages?: number;
}

/** found: the server protocol the create made; null with complete: it was surely not created. */
export type FindCreatedResult = { found: ProtocolRead } | { found: null; complete: boolean };

const PAGE = 100;

/**
 * Looks on the server for the protocol an in-doubt create may have made: list protocols searched
 * by the customer's name, newest first, back to sentAt − skewMs; a candidate has the same
 * sourceId, line items and days supply, and is not already the protocol of another local row.
 * Among candidates the one with exactly the sent content, else the earliest, is taken.
 * Throws the client's error when a page cannot be read (the entry stays in doubt).
 */
export async function findCreatedProtocol(options: FindCreatedOptions): Promise<FindCreatedResult> {
  const { store, client, localId, sent, sentAt, skewMs } = options;
  const maxPages = options.maxPages ?? 20;
  const search = `${sent.customer.firstName} ${sent.customer.lastName}`.slice(0, 200);
  const candidates: ProtocolRead[] = [];
  let cursor: string | null = null;
  let complete = false;
  let unreadable = false;
  for (let page = 0; page < maxPages; page++) {
    const result: Awaited<ReturnType<ApiClient['listProtocols']>> = await client.listProtocols({
      limit: PAGE,
      search,
      ...(cursor ? { cursor, direction: 'next' as const } : {}),
    });
    for (const p of result.protocols) {
      if (!mayBeCreatedFrom(p, sent, sentAt, skewMs)) continue;
      const linked = store.protocols.getByServerId(p.id);
      if (linked && linked.localId !== localId) continue;
      candidates.push(p);
    }
    // A protocol that could not be read may be the one created: the walk proves nothing then.
    if (result.skipped.length > 0) unreadable = true;
    const oldest = result.protocols[result.protocols.length - 1];
    cursor = result.cursor;
    if (!cursor || !oldest || Date.parse(oldest.createdAt) < sentAt - skewMs) {
      complete = !unreadable;
      break;
    }
  }
  const exact = candidates.filter((p) => sameContent(sent, p));
  const pool = exact.length > 0 ? exact : candidates;
  const earliest = pool.sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt))[0];
  if (earliest) return { found: earliest };
  return { found: null, complete };
}
