import type { IpcResult } from '@shared/ipc';
import type { Logger } from '../logging';
import { isTrustedRendererUrl, type RendererLocation } from '../renderer-location';

/** What main knows about the frame that sent a call (null when the frame is gone). */
export interface SenderFacts {
  /** The frame's URL. */
  url: string;
  /** The frame is the main frame of our one window's web contents. */
  isOurMainFrame: boolean;
}

/**
 * The answer to a call from anything but our renderer's main frame. 'internal' rather than
 * 'invalid-arguments': the arguments were never looked at, and our own renderer only meets
 * this answer when its frame went away mid-call (a reload), so no form shows it as a field error.
 */
export const REFUSED_SENDER: IpcResult<never> = {
  ok: false,
  error: {
    kind: 'internal',
    message: 'This call was refused: it did not come from the Order Desk window.',
    fieldErrors: [],
  },
};

export interface InvokeHandlerDeps {
  dispatch(channel: unknown, args: unknown): Promise<IpcResult<unknown>>;
  location: RendererLocation;
  log: Logger;
}

/**
 * The body of the one `ipcMain.handle(IPC_INVOKE)` handler: checks the sender, then dispatches.
 * It never throws: a refused sender or a dispatcher failure is an IpcResult.
 */
export function createInvokeHandler(deps: InvokeHandlerDeps) {
  return async (
    sender: SenderFacts | null,
    channel: unknown,
    args: unknown,
  ): Promise<IpcResult<unknown>> => {
    if (!sender || !sender.isOurMainFrame || !isTrustedRendererUrl(sender.url, deps.location)) {
      deps.log.warn(
        `refused a call to ${JSON.stringify(String(channel)).slice(0, 80)} from ${
          sender ? JSON.stringify(sender.url.slice(0, 200)) : 'a frame that is gone'
        }${sender && !sender.isOurMainFrame ? ' (not our main frame)' : ''}`,
      );
      return REFUSED_SENDER;
    }
    try {
      return await deps.dispatch(channel, args);
    } catch (error) {
      deps.log.error(`the call ${String(channel).slice(0, 80)} failed unexpectedly`, error);
      return {
        ok: false,
        error: {
          kind: 'internal',
          message: 'The call failed unexpectedly; the log has the details.',
          fieldErrors: [],
        },
      };
    }
  };
}
