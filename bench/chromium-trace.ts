import { readFileSync } from 'node:fs';

/** The trace categories of Chromium's own work on a page: tasks, style, layout, paint, raster. */
export const TIMELINE_CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'toplevel',
  'blink',
  'cc',
];

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  dur?: number;
  args?: { name?: string };
}

/** Chromium's work of one kind over a trace: its total and how many events. */
export interface TracePart {
  name: string;
  ms: number;
  events: number;
}

/**
 * What the page's main thread did in a Chromium trace (Playwright's browser.startTracing), by the
 * kind of work: the tasks' total ('RunTask', the busy time), then style, layout, paint and the
 * app's JavaScript inside them (each event's whole duration, so a kind nested in another, as a
 * forced layout in a script, counts in both); and the raster work of the other threads.
 */
export function summariseTrace(file: string): { main: TracePart[]; raster: TracePart[] } {
  const { traceEvents } = JSON.parse(readFileSync(file, 'utf8')) as { traceEvents: TraceEvent[] };
  const threadNames = new Map<string, string>();
  for (const e of traceEvents)
    if (e.ph === 'M' && e.name === 'thread_name')
      threadNames.set(`${e.pid}:${e.tid}`, e.args?.name ?? '');
  const mainThreads = new Set(
    [...threadNames].filter(([, n]) => n === 'CrRendererMain').map(([k]) => k),
  );
  const main = new Map<string, TracePart>();
  const raster = new Map<string, TracePart>();
  const MAIN_KINDS = new Set([
    'RunTask',
    'EventDispatch',
    'FunctionCall',
    'v8.run',
    'TimerFire',
    'FireAnimationFrame',
    'UpdateLayoutTree',
    'Layout',
    'PrePaint',
    'Paint',
    'Layerize',
    'Commit',
    'HitTest',
    'ScrollLayer',
    'MajorGC',
    'MinorGC',
    'V8.GC_SCAVENGER',
    'BlinkGC.AtomicPhase',
  ]);
  const add = (to: Map<string, TracePart>, name: string, us: number) => {
    const part = to.get(name) ?? { name, ms: 0, events: 0 };
    part.ms += us / 1000;
    part.events++;
    to.set(name, part);
  };
  for (const e of traceEvents) {
    if (e.ph !== 'X' || e.dur === undefined) continue;
    const thread = `${e.pid}:${e.tid}`;
    if (mainThreads.has(thread)) {
      if (MAIN_KINDS.has(e.name)) add(main, e.name, e.dur);
    } else if (/^RasterTask$|^TileManager|^ImageDecodeTask$/.test(e.name))
      add(raster, `${e.name} [${threadNames.get(thread) ?? '?'}]`, e.dur);
  }
  const sorted = (m: Map<string, TracePart>) => [...m.values()].sort((a, b) => b.ms - a.ms);
  return { main: sorted(main), raster: sorted(raster) };
}
