import { IPC_CALLS, IPC_CHANNELS, isIpcChannel, type IpcError, type IpcResult } from '@shared/ipc';
import type { Logger } from '../logging';
import type { StartupPort } from '../startup';
import { describeFieldErrors, fieldErrorsOf, toIpcError } from './errors';
import { createIpcHandlers, type IpcHandlers } from './handlers';
import type { IpcHost } from './handlers/context';

export type { IpcHost };

export interface IpcDispatcher {
  /** Answers one call; never throws and never rejects. */
  dispatch(channel: unknown, args: unknown): Promise<IpcResult<unknown>>;
}

const refused = (message: string, fieldErrors: IpcError['fieldErrors'] = []) => ({
  ok: false as const,
  error: { kind: 'invalid-arguments' as const, message, fieldErrors },
});

/**
 * The one entry of every call, whatever the transport: checks the channel and the argument
 * against the contract, runs the handler, checks the answer against the contract, and turns
 * every failure into an IpcError. ipcMain.handle and the browser host's WebSocket both call this.
 */
export function createIpcDispatcher(deps: {
  startup: StartupPort;
  host: IpcHost;
  log: Logger;
}): IpcDispatcher {
  return createContractDispatcher(createIpcHandlers(deps), deps.log, deps.startup.dataDir);
}

/**
 * The contract's checks around a table of handlers: the channel name and the argument are
 * parsed before any handler runs, the handler's answer is parsed with the result schema (fields
 * outside the contract are dropped; an answer that does not match is logged and crosses as
 * `internal`), and anything a handler throws becomes an IpcError. Never throws, never rejects.
 */
export function createContractDispatcher(
  handlers: IpcHandlers,
  log: Logger,
  /** The app's data folder, named when the disk refuses a write. */
  dataDir?: string,
): IpcDispatcher {
  const dispatch = async (channel: unknown, args: unknown): Promise<IpcResult<unknown>> => {
    if (!isIpcChannel(channel)) {
      const name = typeof channel === 'string' ? `"${channel.slice(0, 100)}"` : typeof channel;
      return refused(`No such call: ${name}. Known calls: ${IPC_CHANNELS.join(', ')}.`);
    }
    const contract = IPC_CALLS[channel];
    const parsed = contract.args.safeParse(args);
    if (!parsed.success) {
      const fieldErrors = fieldErrorsOf(parsed.error.issues);
      return refused(
        `Invalid arguments for ${channel}: ${describeFieldErrors(fieldErrors)}.`,
        fieldErrors,
      );
    }
    try {
      const handler = handlers[channel] as (a: unknown) => Promise<unknown>;
      const value = await handler(parsed.data);
      const checked = contract.result.safeParse(value);
      if (!checked.success) {
        log.error(
          `the answer to ${channel} does not match the contract: ${describeFieldErrors(
            fieldErrorsOf(checked.error.issues),
          )}`,
        );
        return {
          ok: false,
          error: {
            kind: 'internal',
            message: `Order Desk produced an answer to ${channel} that it cannot send. The details are in the log file.`,
            fieldErrors: [],
          },
        };
      }
      return { ok: true, value: checked.data };
    } catch (error) {
      return { ok: false, error: toIpcError(error, channel, log, dataDir) };
    }
  };

  return {
    dispatch: (channel, args) =>
      dispatch(channel, args).catch((error: unknown) => ({
        ok: false as const,
        error: toIpcError(error, String(channel), log, dataDir),
      })),
  };
}
