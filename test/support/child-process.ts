import { spawn, type ChildProcess } from 'node:child_process';
import { REPO_ROOT } from './repo-files';

export interface Child {
  child: ChildProcess;
  /** Everything it wrote on stdout and stderr so far. */
  output(): string;
  /** Resolves with the first line of stdout. */
  firstLine: Promise<string>;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGKILL if it still runs. */
  kill(): void;
}

/** A TypeScript fixture of test/fixtures in a Node process of its own (through tsx). */
export function spawnFixture(fixture: string, args: readonly string[]): Child {
  const child = spawn(process.execPath, ['--import', 'tsx', `test/fixtures/${fixture}`, ...args], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let stdout = '';
  let resolveLine!: (line: string) => void;
  const firstLine = new Promise<string>((resolve) => (resolveLine = resolve));
  child.stdout!.on('data', (d: Buffer) => {
    output += d.toString();
    stdout += d.toString();
    const end = stdout.indexOf('\n');
    if (end >= 0) resolveLine(stdout.slice(0, end));
  });
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      resolveLine('');
      resolve({ code, signal });
    }),
  );
  return {
    child,
    output: () => output,
    firstLine,
    exit,
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}
