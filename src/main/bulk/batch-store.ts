import type { OrderStore } from '../orders/order-store';
import type { BatchesRepo } from './batches-repo';

/** The part of a connection's store that sending orders uses (protocol-store.ts says why). */
export interface BatchStore extends OrderStore {
  batches: BatchesRepo;
}
