import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { processCpuSeconds } from './cpu-time';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const READY_TIMEOUT_MS = 30_000;
const STDERR_KEPT = 8_192;
/** The sandbox CLI running in a child process, as the benchmark drives it. */
export interface SandboxProcess {
  pid: number;
  origin: string;
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** Whether the child has exited (for any reason) since it became ready. */
  readonly died: boolean;
  /** CPU seconds (user + system) the child has used so far; null when the platform cannot tell. */
  cpuSeconds(): number | null;
  /** The last few KiB the child wrote to stderr: its log and any crash. */
  stderrTail(): string;
  /** SIGINT and wait: the CLI closes the server and exits 0 (and writes a CPU profile if asked). */
  stop(): Promise<number | null>;
}

const field = (text: string, label: string) => new RegExp(`${label}:\\s+(\\S+)`).exec(text)?.[1];

/**
 * Starts `node --import tsx src/sandbox/cli.ts --port 0 --auto-advance 0` (in-memory database)
 * and resolves once it prints its Base URL. `nodeFlags` go before the script (e.g. --cpu-prof).
 */
export function startSandboxProcess(nodeFlags: string[] = []): Promise<SandboxProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    [...nodeFlags, '--import', 'tsx', 'src/sandbox/cli.ts', '--port', '0', '--auto-advance', '0'],
    { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  let exited = false;
  const exit = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      exited = true;
      resolve(code);
    }),
  );
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_KEPT);
  });

  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(`the sandbox did not start within ${READY_TIMEOUT_MS} ms:\n${stdout}${stderr}`),
      );
    }, READY_TIMEOUT_MS);
    void exit.then((code) => {
      clearTimeout(timer);
      reject(
        new Error(`the sandbox exited with code ${code} before it was ready:\n${stdout}${stderr}`),
      );
    });
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      const baseUrl = field(stdout, 'Base URL');
      const clientId = field(stdout, 'client_id');
      const clientSecret = field(stdout, 'client_secret');
      if (!baseUrl || !clientId || !clientSecret) return;
      clearTimeout(timer);
      resolve({
        pid: child.pid!,
        origin: new URL(baseUrl).origin,
        baseUrl,
        clientId,
        clientSecret,
        get died() {
          return exited;
        },
        cpuSeconds: () => processCpuSeconds(child.pid),
        stderrTail: () => stderr,
        stop: async () => {
          if (!exited) child.kill('SIGINT');
          return exit;
        },
      });
    });
  });
}
