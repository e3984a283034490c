import { mkdirSync } from 'node:fs';
import { createStream, type RotatingFileStream } from 'rotating-file-stream';
import { systemClock, type Clock } from './clock';

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
}

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface FileLogger extends Logger {
  readonly redactor: Redactor;
  close(): Promise<void>;
}

/** A logger writing to `main.log` in `dir`, rotated at 5 MB, keeping 5 old files. */
export function createFileLogger(options: FileLoggerOptions): FileLogger {
  mkdirSync(options.dir, { recursive: true });
  const stream: RotatingFileStream = createStream('main.log', {
    path: options.dir,
    size: '5M',
    maxFiles: 5,
  });
  const clock = options.clock ?? systemClock;
  const redactor = options.redactor ?? new Redactor();
  const min = ORDER[options.level ?? 'info'];

  const write = (level: LogLevel, scope: string, message: string) => {
    if (ORDER[level] < min) return;
    const line = redactor.redact(
      `${new Date(clock.now()).toISOString()} ${level.toUpperCase().padEnd(5)} ${scope ? `${scope}: ` : ''}${message}`,
    );
    stream.write(`${line}\n`);
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
    close: () => new Promise<void>((resolve) => stream.end(() => resolve())),
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
