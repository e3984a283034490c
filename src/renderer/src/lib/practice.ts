import type { PracticeState } from '@shared/practice-views';
import { call } from './ipc';
import { useLiveQuery } from './use-query';

const OFF: PracticeState = { available: false, enabled: false, offline: false, server: 'normal' };

/**
 * Practice mode as main has it, read again when the settings, the connection or its status
 * change; off until the first answer (nothing is marked practice that is not).
 */
export function usePractice(): PracticeState & { refresh(): void } {
  const query = useLiveQuery(
    () => call('practice.state', {}),
    [],
    ['settings', 'connection', 'status'],
  );
  return { ...(query.data ?? OFF), refresh: query.refresh };
}
