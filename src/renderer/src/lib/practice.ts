import type { PracticeState } from '@shared/practice-views';
import { call } from './ipc';
import { useLiveQuery } from './use-query';

const OFF: PracticeState = {
  available: false,
  enabled: false,
  offline: false,
  server: 'normal',
  fulfillment: { paused: false, speed: 'normal' },
};

/**
 * Practice mode as main has it, read again when the settings, the connection or its status
 * change; off until the first answer (nothing is marked practice that is not).
 */
export function usePractice(): PracticeState & { refresh(): void } {
  const query = useLiveQuery((read) => read('practice.state', {}), []);
  return { ...(query.data ?? OFF), refresh: query.refresh };
}

/** Pauses or resumes the practice server's fulfillment (the header marker's button). */
export function setPracticePaused(paused: boolean) {
  return call('practice.setFulfillment', { paused });
}

/** Turns practice mode on or off. */
export function setPracticeEnabled(enabled: boolean) {
  return call('practice.setEnabled', { enabled });
}
