import { describe, expect, it } from 'vitest';
import { INPUT_REPORT_MS, reportPresence, type PresencePage } from '@renderer/lib/presence';

/** A page whose visibility and events the test sets. */
function fakePage() {
  const listeners = new Map<string, Set<() => void>>();
  const page: PresencePage & { fire(type: string): void } = {
    visibilityState: 'visible',
    addEventListener: (type, listener) => {
      if (!listeners.has(type)) listeners.set(type, new Set());
      listeners.get(type)!.add(listener);
    },
    removeEventListener: (type, listener) => listeners.get(type)?.delete(listener),
    fire: (type) => listeners.get(type)?.forEach((l) => l()),
  };
  return page;
}

describe('presence reports (app.presence)', () => {
  it('says at once whether the window is shown, then each change and an input every 30 s', () => {
    const page = fakePage();
    const reports: { visible: boolean; input: boolean }[] = [];
    let now = 1_000;
    const stop = reportPresence(
      page,
      (r) => reports.push(r),
      () => now,
    );
    expect(reports).toEqual([{ visible: true, input: true }]);

    now += 1_000;
    page.fire('keydown'); // within 30 s of being shown: nothing new to say
    expect(reports).toHaveLength(1);
    now += INPUT_REPORT_MS;
    page.fire('pointermove');
    page.fire('wheel');
    expect(reports).toEqual([
      { visible: true, input: true },
      { visible: true, input: true },
    ]);

    page.visibilityState = 'hidden';
    page.fire('visibilitychange');
    expect(reports.at(-1)).toEqual({ visible: false, input: false });
    page.visibilityState = 'visible';
    page.fire('visibilitychange');
    expect(reports.at(-1)).toEqual({ visible: true, input: true });

    stop();
    now += INPUT_REPORT_MS;
    page.fire('keydown');
    expect(reports).toHaveLength(4);
  });
});
