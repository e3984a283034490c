import { mkdirSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { createStream, type RotatingFileStream } from 'rotating-file-stream';
import { systemClock, type Clock } from './clock';
import { realTimers, type Timers } from './timers';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string, error?: unknown): void;
  /** A logger whose lines name a part of the app, e.g. "sync". */
  child(scope: string): Logger;
}

/** Patterns that look like credentials, masked in every line whatever their origin. */
const CREDENTIAL_PATTERNS: readonly RegExp[] = [
  /(bearer\s+)[A-Za-z0-9._~+/=-]+/gi,
  /whsec_[A-Za-z0-9+/=]+/g,
  /((?:access_token|client_secret|refresh_token|webhookSecret)["'=:\s]+)[^\s"'&,}]+/gi,
];

/**
 * Masks credentials in a log line: the patterns above, and every secret the app registered
 * (client secrets read from the keychain, issued tokens). Defence in depth: callers already
 * avoid logging secrets.
 */
export class Redactor {
  private readonly secrets = new Set<string>();

  /** Registers a value that must never appear in a log line (ignores values too short to matter). */
  add(secret: string): void {
    if (secret.length >= 8) this.secrets.add(secret);
  }

  redact(line: string): string {
    let out = line;
    for (const secret of this.secrets) out = out.split(secret).join('[redacted]');
    for (const pattern of CREDENTIAL_PATTERNS) {
      // Keep a captured prefix ("Bearer ", "access_token=") where the pattern has one.
      out = out.replace(
        pattern,
        (...args: unknown[]) => `${typeof args[1] === 'string' ? args[1] : ''}[redacted]`,
      );
    }
    return out;
  }
}

export interface FileLoggerOptions {
  /** The app's log directory. */
  dir: string;
  level?: LogLevel;
  clock?: Clock;
  redactor?: Redactor;
  /** Also write each line here (e.g. stderr in development). */
  echo?: (line: string) => void;
  /**
   * Told when the log file stops taking lines (once per outage) and when it takes them again.
   * Default: standard error.
   */
  onTrouble?: (line: string) => void;
  /** Opens the file stream (tests); default a rotating-file-stream on main.log. */
  openStream?: (dir: string) => Writable;
  /** Size in bytes at which main.log is rotated (tests); default 5 MB. */
  rotateAt?: number;
  /** The timers of the log's retries, its watchdog and close (tests); default the real ones. */
  timers?: Timers;
}

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface FileLogger extends Logger {
  readonly redactor: Redactor;
  close(): Promise<void>;
}

/** `main.log` in `dir`, rotated at `size` bytes (5 MB), keeping 5 old files. */
const rotatingLog =
  (size = 5 * 1024 * 1024) =>
  (dir: string): Writable =>
    createStream('main.log', { path: dir, size: `${size}B`, maxFiles: 5 }) as RotatingFileStream;

/** First wait before a log file that failed is opened again; it doubles up to the maximum. */
const REOPEN_MS = 5_000;
const REOPEN_MAX_MS = 60_000;
/** Writes in flight and none completed for this long: the stream is taken as failed. */
const STALL_MS = 30_000;
/** The longest close() waits for the file. */
const CLOSE_MS = 2_000;

/** The stream the log writes to, and its writes whose callback has not come yet. */
interface OpenFile {
  stream: Writable;
  inFlight: number;
  completed: number;
}

interface Outage {
  since: number;
  retryAt: number;
  wait: number;
  reason: string;
}

/**
 * The log file, which must never take the app down nor hold it up: a write that fails (a full
 * disk, a folder made read-only, a file removed under it, a rotation that cannot finish) or that
 * never completes ends the stream, is said once on standard error, and the lines logged or
 * refused meanwhile are dropped and counted. After a pause (5 s doubling to a minute) a timer,
 * or the next line, opens the file again, and once a line is written the file says how many were
 * dropped; close() makes one last try.
 */
class LogFile {
  private current: OpenFile | null = null;
  private failure: Outage | null = null;
  private dropped = 0;
  private retry: unknown = null;
  private watchdog: unknown = null;
  private closed = false;

  constructor(
    private readonly dir: string,
    private readonly clock: Clock,
    private readonly timers: Timers,
    private readonly open: (dir: string) => Writable,
    private readonly tell: (line: string) => void,
  ) {
    this.reopen();
  }

  write(text: string): void {
    if (this.closed) return;
    if (!this.current && this.failure && this.clock.now() >= this.failure.retryAt) this.reopen();
    if (!this.current) {
      this.dropped++;
      return;
    }
    this.send(this.current, text, (error) => {
      if (error) this.dropped++;
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.cancel('retry');
    // An app that quits soon after the disk has room still records what was lost.
    if (!this.current && this.failure) this.reopen();
    const current = this.current;
    this.current = null;
    this.cancel('watchdog');
    if (!current) return;
    const { stream } = current;
    await new Promise<void>((resolve) => {
      const bound = this.timers.setTimeout(() => {
        stream.destroy();
        resolve();
      }, CLOSE_MS);
      const done = () => {
        this.timers.clearTimeout(bound);
        resolve();
      };
      stream.once('error', done);
      stream.end(done);
    });
  }

  private reopen(): void {
    this.cancel('retry');
    let stream: Writable;
    try {
      mkdirSync(this.dir, { recursive: true });
      stream = this.open(this.dir);
    } catch (error) {
      this.failed(null, error);
      return;
    }
    const current: OpenFile = { stream, inFlight: 0, completed: 0 };
    this.current = current;
    stream.on('error', (error) => this.failed(stream, error));
    const outage = this.failure;
    if (!outage) return;
    // A probe through the new stream: only a line that reached the file ends the outage. It
    // starts a line of its own: the disk may have cut the last line before the outage.
    const dropped = this.dropped;
    this.send(
      current,
      `\n${new Date(this.clock.now()).toISOString()} WARN  logging: the log could not be written since ${new Date(outage.since).toISOString()} (${outage.reason}); at least ${dropped} line(s) were lost\n`,
      (error) => {
        if (error || this.current !== current || this.failure !== outage) return;
        this.failure = null;
        this.dropped -= dropped;
        this.tell(`Order Desk: the log file in ${this.dir} is written again.`);
      },
    );
  }

  private send(current: OpenFile, text: string, done: (error: Error | null) => void): void {
    current.inFlight++;
    current.stream.write(text, (error) => {
      current.inFlight--;
      current.completed++;
      done(error ?? null);
    });
    this.watch(current);
  }

  /** A stream whose writes stop calling back says nothing: none completing in STALL_MS is a failure. */
  private watch(current: OpenFile): void {
    if (this.watchdog !== null) return;
    const completed = current.completed;
    this.watchdog = this.schedule(() => {
      this.watchdog = null;
      if (this.current !== current || current.inFlight === 0) return;
      if (current.completed !== completed) this.watch(current);
      else
        this.failed(
          current.stream,
          new Error(`a write did not complete within ${STALL_MS / 1000} s`),
        );
    }, STALL_MS);
  }

  private failed(stream: Writable | null, error: unknown): void {
    if (stream && stream !== this.current?.stream) return; // an old stream's late error
    this.current = null;
    this.cancel('watchdog');
    stream?.destroy();
    const now = this.clock.now();
    const reason = error instanceof Error ? error.message : String(error);
    if (this.failure) {
      const wait = Math.min(this.failure.wait * 2, REOPEN_MAX_MS);
      this.failure = { ...this.failure, retryAt: now + wait, wait };
    } else {
      this.failure = { since: now, retryAt: now + REOPEN_MS, wait: REOPEN_MS, reason };
      this.tell(
        `Order Desk: the log file in ${this.dir} cannot be written (${reason}); log lines are dropped until it can be written again. The app itself goes on.`,
      );
    }
    if (this.closed) return;
    // Not only the next line: an idle app, or one whose last lines came before the pause ended.
    this.cancel('retry');
    this.retry = this.schedule(() => {
      this.retry = null;
      if (!this.current && !this.closed) this.reopen();
    }, this.failure.wait);
  }

  /** A timer that does not keep the process alive on its own. */
  private schedule(fn: () => void, ms: number): unknown {
    const handle = this.timers.setTimeout(fn, ms);
    (handle as { unref?: () => void } | null)?.unref?.();
    return handle;
  }

  private cancel(which: 'retry' | 'watchdog'): void {
    const handle = this[which];
    if (handle === null) return;
    this.timers.clearTimeout(handle);
    this[which] = null;
  }
}

/** A logger writing to `main.log` in `dir`, rotated at 5 MB, keeping 5 old files. */
export function createFileLogger(options: FileLoggerOptions): FileLogger {
  const clock = options.clock ?? systemClock;
  const file = new LogFile(
    options.dir,
    clock,
    options.timers ?? realTimers,
    options.openStream ?? rotatingLog(options.rotateAt),
    options.onTrouble ?? ((line) => process.stderr.write(`${line}\n`)),
  );
  const redactor = options.redactor ?? new Redactor();
  const min = ORDER[options.level ?? 'info'];

  const write = (level: LogLevel, scope: string, message: string) => {
    if (ORDER[level] < min) return;
    const line = redactor.redact(
      `${new Date(clock.now()).toISOString()} ${level.toUpperCase().padEnd(5)} ${scope ? `${scope}: ` : ''}${message}`,
    );
    file.write(`${line}\n`);
    options.echo?.(line);
  };

  const make = (scope: string): Logger => ({
    debug: (m) => write('debug', scope, m),
    info: (m) => write('info', scope, m),
    warn: (m) => write('warn', scope, m),
    error: (m, e) => write('error', scope, e === undefined ? m : `${m}: ${describeError(e)}`),
    child: (s) => make(scope ? `${scope}.${s}` : s),
  });

  return {
    ...make(''),
    redactor,
    close: () => file.close(),
  };
}

/** An error's message and the first frames of its stack, on one line. */
export function describeError(error: unknown): string {
  if (error instanceof Error) {
    const frames = (error.stack ?? '')
      .split('\n')
      .slice(1, 4)
      .map((l) => l.trim())
      .join(' < ');
    return frames
      ? `${error.name}: ${error.message} (${frames})`
      : `${error.name}: ${error.message}`;
  }
  return String(error);
}

/** A logger that drops everything, for tests of modules that take one. */
export const silentLogger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  child: () => silentLogger,
};
