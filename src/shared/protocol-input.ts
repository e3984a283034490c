import type { z } from 'zod';
import { AddressRequest, CustomerRequest, ProtocolRequest } from './api';
import { UsStateCode } from './us-states';

/**
 * A protocol as this app lets people write it: the spec's ProtocolRequest, with the address's
 * state one of US_STATES (the spec asks only for 2 characters, so "TE" would reach the server and
 * a parcel would go nowhere). The sandbox keeps the spec's rule; the app's own boundaries (IPC,
 * the CSV import, the store's writes) use these. A copy read back from the store or the server is
 * not refused for its state (docs/decisions.md, "US states"): the editor asks for a valid one
 * before it is saved again.
 */
export const AddressInput = AddressRequest.extend({ state: UsStateCode });
export type AddressInput = z.infer<typeof AddressInput>;

export const CustomerInput = CustomerRequest.extend({ address: AddressInput });
export type CustomerInput = z.infer<typeof CustomerInput>;

export const ProtocolInput = ProtocolRequest.extend({ customer: CustomerInput });
export type ProtocolInput = z.infer<typeof ProtocolInput>;
