import { useState } from 'react';
import type { IpcResult } from '@shared/ipc';
import { errorMessage } from '@renderer/lib/ipc';

/** What a practice card shows of its command: whether it runs, what it did, or why it failed. */
export interface PracticeCommand<T> {
  busy: boolean;
  error: string | null;
  /** What the last command that succeeded answered; none after a failure. */
  done: T | null;
  run(command: () => Promise<IpcResult<T>>): Promise<void>;
}

/** Runs a card's practice.* command, one at a time, and keeps its outcome for the card to say. */
export function usePracticeCommand<T>(): PracticeCommand<T> {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<T | null>(null);

  const run = async (command: () => Promise<IpcResult<T>>) => {
    setBusy(true);
    setError(null);
    const result = await command();
    setBusy(false);
    if (result.ok) setDone(result.value);
    else {
      setDone(null);
      setError(errorMessage(result.error));
    }
  };

  return { busy, error, done, run };
}
