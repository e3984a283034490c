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
  /** The timers of the log's retries (tests); default the real ones. */
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

interface Outage {
  since: number;
  retryAt: number;
  wait: number;
  reason: string;
}

/**
 * The log file, which must never take the app down: a write that fails (a full disk, a folder
 * made read-only, a file removed under it, a rotation that cannot finish) ends the stream, is
 * said once on standard error, and the lines logged or refused meanwhile are dropped and
 * counted. After a pause (5 s doubling to a minute) a timer, or the next line, opens the file
 * again, and once a line is written the file says how many were dropped; close() makes one last
 * try.
 */
class LogFile {
  private stream: Writable | null = null;
  private failure: Outage | null = null;
  private dropped = 0;
  private retry: unknown = null;
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
    if (!this.stream && this.failure && this.clock.now() >= this.failure.retryAt) this.reopen();
    if (!this.stream) {
      this.dropped++;
      return;
    }
    this.stream.write(text, (error) => {
      if (error) this.dropped++;
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.cancel();
    // An app that quits soon after the disk has room still records what was lost.
    if (!this.stream && this.failure) this.reopen();
    const stream = this.stream;
    this.stream = null;
    if (!stream) return;
    await new Promise<void>((resolve) => {
      stream.once('error', () => resolve());
      stream.end(() => resolve());
    });
  }

  private reopen(): void {
    this.cancel();
    let stream: Writable;
    try {
      mkdirSync(this.dir, { recursive: true });
      stream = this.open(this.dir);
    } catch (error) {
      this.failed(null, error);
      return;
    }
    this.stream = stream;
    stream.on('error', (error) => this.failed(stream, error));
    const outage = this.failure;
    if (!outage) return;
    // A probe through the new stream: only a line that reached the file ends the outage. It
    // starts a line of its own: the disk may have cut the last line before the outage.
    const dropped = this.dropped;
    stream.write(
      `\n${new Date(this.clock.now()).toISOString()} WARN  logging: the log could not be written since ${new Date(outage.since).toISOString()} (${outage.reason}); at least ${dropped} line(s) were lost\n`,
      (error) => {
        if (error || this.stream !== stream || this.failure !== outage) return;
        this.failure = null;
        this.dropped -= dropped;
        this.tell(`Order Desk: the log file in ${this.dir} is written again.`);
      },
    );
  }

  private failed(stream: Writable | null, error: unknown): void {
    if (stream && stream !== this.stream) return; // an old stream's late error
    this.stream = null;
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
    this.cancel();
    this.retry = this.timers.setTimeout(() => {
      this.retry = null;
      if (!this.stream && !this.closed) this.reopen();
    }, this.failure.wait);
    // The retry alone does not keep the process alive.
    (this.retry as { unref?: () => void } | null)?.unref?.();
  }

  private cancel(): void {
    if (this.retry === null) return;
    this.timers.clearTimeout(this.retry);
    this.retry = null;
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
