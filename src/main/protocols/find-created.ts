import type { ProtocolRead, ProtocolRequest } from '@shared/api';
import type { ApiClient } from '../api/client';
import type { ProtocolStore } from './protocol-store';
import { sameContent } from './protocol-content';
import { isUntouchedMirrorCopy } from './protocol-model';

export interface FindCreatedOptions {
  store: ProtocolStore;
  client: Pick<ApiClient, 'listProtocols'>;
  /** The local protocol whose create is in doubt. */
  localId: string;
  /** What was sent. */
  sent: ProtocolRequest;
  /** Server time (epoch ms) the create was sent at: the best match is the one made nearest it. */
  sentAt: number;
  /** Server time before which the create cannot have made its protocol. */
  since: number;
  /** Server protocols already taken by another in-doubt create settled in the same round. */
  exclude: ReadonlySet<string>;
  /** A walk longer than this proves nothing. Default 20 pages of 100. */
  maxPages?: number;
}

/** found: the server protocol the create made; null with complete: it was surely not created. */
export type FindCreatedResult = { found: ProtocolRead } | { found: null; complete: boolean };

const PAGE = 100;

/**
 * Looks on the server for the protocol an in-doubt create may have made: protocols listed by the
 * customer's name, newest first, back to `since`, holding every field that was sent, not another
 * local row's (a copy the pull made aside) nor taken earlier in the round; the one created
 * nearest the send wins. Throws the client's error when a page cannot be read (still in doubt).
 */
export async function findCreatedProtocol(options: FindCreatedOptions): Promise<FindCreatedResult> {
  const { store, client, localId, sent, sentAt, since, exclude } = options;
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
      if (exclude.has(p.id) || Date.parse(p.createdAt) < since || !sameContent(sent, p)) continue;
      if (takenByAnother(store, p.id, localId)) continue;
      candidates.push(p);
    }
    // A protocol that could not be read may be the one created: the walk proves nothing then.
    if (result.skipped.length > 0) unreadable = true;
    const oldest = result.protocols[result.protocols.length - 1];
    cursor = result.cursor;
    if (!cursor || !oldest || Date.parse(oldest.createdAt) < since) {
      complete = !unreadable;
      break;
    }
  }
  const distance = (p: ProtocolRead) => Math.abs(Date.parse(p.createdAt) - sentAt);
  const nearest = candidates.sort((a, b) => distance(a) - distance(b))[0];
  if (nearest) return { found: nearest };
  return { found: null, complete };
}

/**
 * Whether server protocol `serverId` is another local protocol's: a row the user made or
 * changed. A copy the mirror pull inserted while the create was in doubt is not (recording the
 * create merges it away).
 */
export function takenByAnother(store: ProtocolStore, serverId: string, localId: string): boolean {
  const linked = store.protocols.getByServerId(serverId);
  return linked !== null && linked.localId !== localId && !isUntouchedMirrorCopy(linked);
}
