/**
 * The machine a bench run happens on, and how busy other work kept it: what docs/PERFORMANCE.md
 * states beside the figures (bench/run-all.ts).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
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

/** A process's parent and its own CPU ticks (user + system), from /proc/PID/stat. */
function procStat(pid: string): { ppid: number; ticks: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name in parentheses may hold spaces: count fields after its closing parenthesis.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) };
  } catch {
    return null; // gone meanwhile
  }
}

/**
 * The CPU used by this process and every process below it, sampled from /proc every
 * `intervalMs`. A parent's "children" times are not used: Chromium's processes, for one, are not
 * all waited for along the chain, so they would be missed. A process is counted up to its last
 * sample (a process shorter than one interval may be missed); once seen it stays counted, even
 * if it is handed to init.
 */
export class ProcessTreeCpu {
  private readonly seen = new Map<number, number>();
  private readonly timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly root = process.pid,
    intervalMs = 250,
  ) {
    if (!existsSync('/proc/self/stat')) return;
    this.sample();
    this.timer = setInterval(() => this.sample(), intervalMs);
    this.timer.unref();
  }

  get available(): boolean {
    return this.timer !== null;
  }

  private sample(): void {
    const stats = new Map<number, { ppid: number; ticks: number }>();
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      const stat = procStat(name);
      if (stat) stats.set(Number(name), stat);
    }
    const ours = (pid: number): boolean => {
      const chain: number[] = [];
      let at: number | undefined = pid;
      while (at !== undefined && at > 1 && !this.seen.has(at) && at !== this.root) {
        chain.push(at);
        at = stats.get(at)?.ppid;
      }
      const mine = at !== undefined && (at === this.root || this.seen.has(at));
      if (mine) for (const p of chain) this.seen.set(p, this.seen.get(p) ?? 0);
      return mine;
    };
    for (const [pid, stat] of stats) {
      if (ours(pid)) this.seen.set(pid, Math.max(this.seen.get(pid) ?? 0, stat.ticks));
    }
  }

  /** CPU ticks used so far by the tree (since each process started). */
  ticks(): number {
    if (!this.available) return 0;
    this.sample();
    let sum = 0;
    for (const t of this.seen.values()) sum += t;
    return sum;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }
}

/** CPU time in ticks: the whole machine's, and this process tree's. */
export interface CpuSnapshot {
  at: number;
  machineBusy: number;
  ours: number;
}

/** Null where /proc is not there (not Linux). */
export function cpuSnapshot(tree: ProcessTreeCpu): CpuSnapshot | null {
  if (!tree.available) return null;
  try {
    // cpu  user nice system idle iowait irq softirq steal guest guest_nice
    const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).map(Number);
    const [, user, nice, system, , , irq, softirq, steal] = cpu as number[];
    const machineBusy = user! + nice! + system! + irq! + softirq! + (steal ?? 0);
    return { at: performance.now(), machineBusy, ours: tree.ticks() };
  } catch {
    return null;
  }
}

/**
 * The share of the machine's CPU (0..1 of every core) that work other than this run used between
 * two snapshots; null when unknown.
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
