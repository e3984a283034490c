import type { ConnectionView } from '@shared/ipc';
import type { StoredConnection } from '../connections/connections-repo';

/** A stored connection as the UI sees it: the contract's fields only (no secret is stored anyway). */
export const toConnectionView = (c: StoredConnection): ConnectionView => ({
  id: c.id,
  kind: c.kind,
  label: c.label,
  baseUrl: c.baseUrl,
  authUrl: c.authUrl,
  clientId: c.clientId,
  isActive: c.isActive,
  // connections.list says when a secret is missing (it reads the keychain); elsewhere false.
  secretMissing: false,
});
