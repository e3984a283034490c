import { z } from 'zod';
import { Connection, ConnectionKind } from '../connection';
import { ConnectionRemoval } from '../store-views';
import { call, None, read, type AreaChannels } from './channel';

/** A saved connection as the UI sees it: never a secret. */
export const ConnectionView = Connection.extend({
  isActive: z.boolean(),
  /** A partner connection whose client secret is not in the keychain: it must be entered again. */
  secretMissing: z.boolean().default(false),
});
export type ConnectionView = z.infer<typeof ConnectionView>;

/** What the user types on the Connect screen for a partner sandbox or production. */
export const PartnerConnectionInput = z.object({
  kind: ConnectionKind.exclude(['embedded']),
  label: z.string().trim().min(1, 'required').max(100, 'at most 100 characters'),
  baseUrl: z.string().trim().min(1, 'required'),
  authUrl: z.string().trim().min(1, 'required'),
  clientId: z.string().trim().min(1, 'required').max(200, 'at most 200 characters'),
  clientSecret: z.string().min(1, 'required').max(1000, 'at most 1000 characters'),
});
export type PartnerConnectionInput = z.infer<typeof PartnerConnectionInput>;

/** Edits a saved partner connection; without clientSecret the one in the keychain is kept. */
export const UpdateConnectionInput = PartnerConnectionInput.extend({
  id: z.string().min(1).max(64),
  clientSecret: PartnerConnectionInput.shape.clientSecret.optional(),
});
export type UpdateConnectionInput = z.input<typeof UpdateConnectionInput>;

/** connections.*: the saved connections, testing, connecting, switching, editing, removing. */
export const connectionsChannels = {
  'connections.list': read(None, z.array(ConnectionView), ['connection']),
  /** Checks credentials without saving anything; answers the partner's name. */
  'connections.test': call(PartnerConnectionInput, z.object({ partnerName: z.string() })),
  /** Tests, saves and activates a partner connection (its own store file: nothing else changes). */
  'connections.connect': call(PartnerConnectionInput, ConnectionView),
  'connections.useEmbedded': call(None, ConnectionView),
  /** Makes a saved connection active: its store is opened, the other one's is kept as it is. */
  'connections.activate': call(z.object({ id: z.string().min(1).max(64) }), ConnectionView),
  /** Edits a saved partner connection (e.g. enters its secret again), tests it, activates it. */
  'connections.update': call(UpdateConnectionInput, ConnectionView),
  /** What removing a saved connection would delete: its store file and what it holds. */
  'connections.removal': call(z.object({ id: z.string().min(1).max(64) }), ConnectionRemoval),
  /** Removes an inactive connection: its secret and its store file are deleted. */
  'connections.remove': call(
    z.object({ id: z.string().min(1).max(64) }),
    z.object({ removed: z.boolean() }),
  ),
} as const satisfies AreaChannels<'connections'>;
