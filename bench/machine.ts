/**
 * The machine a bench run happens on, and how busy other work kept it: what docs/PERFORMANCE.md
 * states beside the figures (bench/run-all.ts).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';

export interface MachineInfo {
  cpuModel: string;
  cpuCount: number;
  memoryBytes: number;
  os: string;
  node: string;
  /** The Chromium the renderer benches drive; null when it does not answer. */
  chromium: string | null;
}

function osName(): string {
  let pretty = '';
  try {
    pretty = /^PRETTY_NAME="?([^"\n]*)"?/m.exec(readFileSync('/etc/os-release', 'utf8'))?.[1] ?? '';
  } catch {
    // not Linux, or no os-release: the kernel's name is enough
  }
  const kernel = `${os.type()} ${os.release()} ${os.arch()}`;
  return pretty ? `${pretty} (${kernel})` : kernel;
}

function chromiumVersion(): string | null {
  try {
    return execFileSync('/usr/bin/chromium', ['--version'], {
      encoding: 'utf8',
      timeout: 10_000,
      stdio: ['ignore', 'pipe', 'ignore'],
    })
      .trim()
      .replace(/\s+/g, ' ');
  } catch {
    return null;
  }
}

export function machineInfo(): MachineInfo {
  const cpus = os.cpus();
  return {
    cpuModel: cpus[0]?.model.trim() ?? 'unknown CPU',
    cpuCount: cpus.length,
    memoryBytes: os.totalmem(),
    os: osName(),
    node: process.version,
    chromium: chromiumVersion(),
  };
}

/** 1, 5 and 15 minute load averages. */
export type LoadAverage = [number, number, number];
export const loadAverage = (): LoadAverage => os.loadavg() as LoadAverage;

/** USER_HZ: the unit of /proc/stat and /proc/PID/stat times, 100 on every mainstream Linux. */
const TICKS_PER_SECOND = 100;

/** CPU time in ticks: the whole machine's, and this process's with its waited-for children's. */
export interface CpuSnapshot {
  at: number;
  machineBusy: number;
  ours: number;
}

/** Null where /proc is not there (not Linux). */
export function cpuSnapshot(): CpuSnapshot | null {
  try {
    // cpu  user nice system idle iowait irq softirq steal guest guest_nice
    const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).map(Number);
    const [, user, nice, system, , , irq, softirq, steal] = cpu as number[];
    const machineBusy = user! + nice! + system! + irq! + softirq! + (steal ?? 0);
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const f = stat
      .slice(stat.lastIndexOf(')') + 2)
      .split(' ')
      .map(Number);
    // utime stime cutime cstime: this runner and every bench it has waited for (and theirs).
    const ours = f[11]! + f[12]! + f[13]! + f[14]!;
    return { at: performance.now(), machineBusy, ours };
  } catch {
    return null;
  }
}

/**
 * The share of the machine's CPU (0..1 of every core) that work other than this run used between
 * two snapshots; null when unknown. A bench still running at `to` counts as other work, so take
 * `to` after it has exited.
 */
export function otherWorkShare(
  from: CpuSnapshot | null,
  to: CpuSnapshot | null,
  cpuCount: number,
): number | null {
  if (!from || !to || to.at <= from.at || cpuCount <= 0) return null;
  const available = ((to.at - from.at) / 1000) * TICKS_PER_SECOND * cpuCount;
  const other = to.machineBusy - from.machineBusy - (to.ours - from.ours);
  return Math.min(1, Math.max(0, other / available));
}
