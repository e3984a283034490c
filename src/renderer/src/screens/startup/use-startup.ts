import { useCallback, useEffect, useState } from 'react';
import type { StartupView } from '@shared/startup-views';
import { call, errorMessage, on } from '@renderer/lib/ipc';

export interface Startup {
  /** What main is doing before the data is open; null until it has said. */
  view: StartupView | null;
  /** Main could not be asked, or refused a request (said in words). */
  error: string | null;
  /** A request (try again, start fresh) is on its way. */
  busy: boolean;
  retry(): Promise<void>;
  startFresh(): Promise<void>;
}

/** The startup's phase: asked once, then followed through the `startup` event. */
export function useStartup(): Startup {
  const [view, setView] = useState<StartupView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const ask = useCallback(() => {
    let heard = false;
    let alive = true;
    const off = on('startup', (next) => {
      heard = true;
      setView(next);
    });
    void call('startup.state', {}).then((result) => {
      if (!alive) return;
      if (!result.ok) setError(errorMessage(result.error));
      // An event heard meanwhile is newer than this answer.
      else if (!heard) setView(result.value);
    });
    return () => {
      alive = false;
      off();
    };
  }, []);
  useEffect(ask, [ask]);

  const act = useCallback(async (request: () => ReturnType<typeof call<'startup.retry'>>) => {
    setBusy(true);
    setError(null);
    const result = await request();
    setBusy(false);
    if (result.ok) setView(result.value);
    else setError(errorMessage(result.error));
  }, []);

  return {
    view,
    error,
    busy,
    retry: () => act(() => call('startup.retry', {})),
    startFresh: () => act(() => call('startup.startFresh', { confirm: true })),
  };
}
