import { readFileSync } from 'node:fs';

/** The parts of a V8 .cpuprofile (node --cpu-prof) that a self-time summary needs. */
interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
}

export interface SelfTime {
  name: string;
  ms: number;
  share: number;
}

/** Where a function lives: a package, a repo folder, Node's internals, or V8 itself. */
function moduleOf(url: string): string {
  if (!url) return '(native / V8)';
  if (url.startsWith('node:')) return 'node:internal';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  const src = /\/((?:src|bench|test)\/[^/]+(?:\/[^/]+)?)/.exec(url);
  return src ? src[1]!.replace(/\.ts$/, '') : url;
}

const top = (totals: Map<string, number>, all: number, n: number): SelfTime[] =>
  [...totals.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([name, us]) => ({ name, ms: us / 1000, share: us / all }));

/** Self time by function and by module, largest first, as shares of the busy (non-idle) time. */
export function summariseCpuProfile(
  file: string,
  n = 15,
): { functions: SelfTime[]; modules: SelfTime[]; busyMs: number; idleMs: number } {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const functions = new Map<string, number>();
  const modules = new Map<string, number>();
  let all = 0;
  let idle = 0;
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i] ?? 0;
    const frame = byId.get(id);
    if (!frame) return;
    if (frame.functionName === '(idle)') {
      idle += us;
      return;
    }
    const where = moduleOf(frame.url);
    const name = `${frame.functionName || '(anonymous)'}  [${where}${frame.url ? `:${frame.lineNumber + 1}` : ''}]`;
    functions.set(name, (functions.get(name) ?? 0) + us);
    modules.set(where, (modules.get(where) ?? 0) + us);
    all += us;
  });
  return {
    functions: top(functions, all, n),
    modules: top(modules, all, n),
    busyMs: all / 1000,
    idleMs: idle / 1000,
  };
}
