import { ProtocolRequest } from '../../shared/api';
import type { LocalStore } from '../store';

/**
 * The exact request body of a protocol push in flight, kept in sync_state next to the outbox
 * entry until the push settles. The draft may change while a push is in flight or in doubt, so
 * only this copy tells what the server may have received: reconciliation of an in-doubt create
 * and adoption of a PUT whose answer was lost compare the server with it.
 */
const key = (seq: number) => `outbox.sent.${seq}`;

export function saveSentRequest(store: LocalStore, seq: number, request: ProtocolRequest): void {
  store.syncState.set(key(seq), request);
}

export function sentRequest(store: LocalStore, seq: number): ProtocolRequest | null {
  return store.syncState.get(key(seq), ProtocolRequest);
}

export function clearSentRequest(store: LocalStore, seq: number): void {
  store.syncState.delete(key(seq));
}
