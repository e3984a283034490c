import { silentLogger, type Logger } from '@main/logging';

/**
 * A logger that records its error lines in `lines`, as the file logger would write them (before
 * redaction): "message: error text", or the message alone when no error was given.
 */
export function recordingLogger(lines: string[]): Logger {
  const logger: Logger = {
    ...silentLogger,
    error: (message, error) =>
      lines.push(
        error === undefined
          ? message
          : `${message}: ${error instanceof Error ? error.message : String(error)}`,
      ),
    child: () => logger,
  };
  return logger;
}
