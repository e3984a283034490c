import type { ConflictChoice } from '@shared/protocol-views';
import { call } from '@renderer/lib/ipc';
import { useLiveQuery } from '@renderer/lib/use-query';

/** The protocols changed here and on the server, read again whenever protocols or jobs change. */
export function useConflicts() {
  const read = useLiveQuery((read) => read('protocols.conflicts', {}), []);
  return read;
}

/** Settles one conflict with the user's choice. */
export function resolveConflict(localId: string, choice: ConflictChoice) {
  return call('protocols.resolveConflict', { localId, choice });
}
