import { readFileSync } from 'node:fs';

/** USER_HZ: the unit of utime and stime in /proc stat files, 100 on every mainstream Linux. */
const CLOCK_TICKS_PER_SECOND = 100;

/**
 * CPU seconds (user + system) from a /proc stat file (`/proc/PID/stat` for a process,
 * `/proc/PID/task/TID/stat` for one thread); null where there is none. 10 ms resolution.
 */
function cpuSecondsFrom(statPath: string): number | null {
  if (process.platform !== 'linux') return null;
  try {
    const stat = readFileSync(statPath, 'utf8');
    // The command name in parentheses may hold spaces: count fields after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** CPU seconds a process (all its threads) has used so far. */
export const processCpuSeconds = (pid: number | undefined): number | null =>
  pid === undefined ? null : cpuSecondsFrom(`/proc/${pid}/stat`);

/** CPU seconds this process's main thread (the event loop) has used so far, without its other threads. */
export const mainThreadCpuSeconds = (): number | null =>
  cpuSecondsFrom(`/proc/${process.pid}/task/${process.pid}/stat`);
