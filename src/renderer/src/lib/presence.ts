import { call } from './ipc';

/** An input is told to main at most this often; main counts five minutes without one as idle. */
export const INPUT_REPORT_MS = 30_000;

const INPUT_EVENTS = ['keydown', 'pointerdown', 'pointermove', 'wheel', 'touchstart'] as const;

/** The part of the page presence looks at (the document, or a stand-in in tests). */
export interface PresencePage {
  visibilityState: string;
  addEventListener(type: string, listener: () => void, options?: ListenerOptions): void;
  removeEventListener(type: string, listener: () => void, options?: ListenerOptions): void;
}

type ListenerOptions = { passive?: boolean; capture?: boolean };

type Report = (report: { visible: boolean; input: boolean }) => void;

const reportToMain: Report = (report) => void call('app.presence', report);

/**
 * Tells main whether the window is shown and in use (`app.presence`): at once, at each change of
 * visibility (being shown counts as input), and at an input at most every 30 s. The same path in
 * Electron and the browser host: document.visibilityState is hidden in both when minimized or
 * in a background tab. Returns the function that stops it.
 */
export function reportPresence(
  page: PresencePage = (globalThis as unknown as { document: PresencePage }).document,
  report: Report = reportToMain,
  now: () => number = () => performance.now(),
): () => void {
  let lastInput = -Infinity;
  const shown = () => page.visibilityState !== 'hidden';
  const onVisibility = () => {
    const visible = shown();
    if (visible) lastInput = now();
    report({ visible, input: visible });
  };
  const onInput = () => {
    const at = now();
    if (at - lastInput < INPUT_REPORT_MS) return;
    lastInput = at;
    report({ visible: shown(), input: true });
  };
  const options = { passive: true, capture: true };
  page.addEventListener('visibilitychange', onVisibility);
  for (const type of INPUT_EVENTS) page.addEventListener(type, onInput, options);
  onVisibility();
  return () => {
    page.removeEventListener('visibilitychange', onVisibility);
    for (const type of INPUT_EVENTS) page.removeEventListener(type, onInput, options);
  };
}
