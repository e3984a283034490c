import type { ReactNode } from 'react';
import { StartupScreen } from './StartupScreen';
import { useStartup } from './use-startup';

/**
 * Shows the app once main has opened its data; until then, what it is doing (encrypting it on
 * the first start of this version) or why it waits for the user (a key it cannot find).
 */
export function StartupGate({ children }: { children: ReactNode }) {
  const startup = useStartup();
  if (startup.view?.phase === 'ready') return children;
  return <StartupScreen {...startup} />;
}
