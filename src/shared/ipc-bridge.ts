import {
  IPC_CALLS,
  IPC_EVENTS,
  IpcError,
  isIpcChannel,
  isIpcEventName,
  type IpcArgs,
  type IpcChannel,
  type IpcEventName,
  type IpcEventPayload,
  type IpcResult,
  type IpcValue,
  type OrderDeskApi,
} from './ipc';

/** What a transport must do: send one call and answer main's envelope; deliver pushed events. */
export interface IpcTransport {
  invoke(channel: IpcChannel, args: unknown): Promise<unknown>;
  /** Calls `listener` with every event main pushes; returns the unsubscribe function. */
  subscribe(listener: (event: string, payload: unknown) => void): () => void;
}

const failure = (kind: IpcError['kind'], message: string): { ok: false; error: IpcError } => ({
  ok: false,
  error: { kind, message, fieldErrors: [] },
});

/**
 * Builds the renderer's `window.orderDesk` on a transport (Electron's ipcRenderer in the preload,
 * the browser host's WebSocket in the browser). Main validates every argument; this side
 * validates every answer and every event against the same contract, so a renderer never works
 * with a value the contract does not describe. It never throws: a failure is an IpcResult.
 */
export function createOrderDeskApi(transport: IpcTransport): OrderDeskApi {
  const listeners = new Map<IpcEventName, Set<(payload: never) => void>>();
  let unsubscribe: (() => void) | null = null;

  const dispatch = (event: string, payload: unknown) => {
    if (!isIpcEventName(event)) return;
    const set = listeners.get(event);
    if (!set || set.size === 0) return;
    const parsed = IPC_EVENTS[event].safeParse(payload);
    if (!parsed.success) {
      console.error(`order-desk: dropped a malformed "${event}" event`, parsed.error.issues);
      return;
    }
    for (const listener of [...set]) (listener as (p: unknown) => void)(parsed.data);
  };

  return {
    async call<C extends IpcChannel>(
      channel: C,
      args: IpcArgs<C>,
    ): Promise<IpcResult<IpcValue<C>>> {
      if (!isIpcChannel(channel)) return failure('invalid-arguments', `No such call: ${channel}`);
      let envelope: unknown;
      try {
        envelope = await transport.invoke(channel, args === undefined ? {} : args);
      } catch (error) {
        return failure(
          'internal',
          `The call ${channel} could not be delivered: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      const e = envelope as { ok?: unknown; value?: unknown; error?: unknown } | null;
      if (e && e.ok === false) {
        const error = IpcError.safeParse(e.error);
        return error.success
          ? { ok: false, error: error.data }
          : failure('invalid-response', `The call ${channel} failed with an unreadable error.`);
      }
      if (e && e.ok === true) {
        const value = IPC_CALLS[channel].result.safeParse(e.value);
        if (value.success) return { ok: true, value: value.data as IpcValue<C> };
        return failure(
          'invalid-response',
          `The answer to ${channel} does not match the contract: ${value.error.issues
            .slice(0, 3)
            .map((i) => `${i.path.join('.') || '(root)'} ${i.message}`)
            .join('; ')}`,
        );
      }
      return failure('invalid-response', `The answer to ${channel} is not a result envelope.`);
    },

    on<E extends IpcEventName>(
      event: E,
      listener: (payload: IpcEventPayload<E>) => void,
    ): () => void {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener as (payload: never) => void);
      unsubscribe ??= transport.subscribe(dispatch);
      return () => {
        set.delete(listener as (payload: never) => void);
        if ([...listeners.values()].every((s) => s.size === 0) && unsubscribe) {
          unsubscribe();
          unsubscribe = null;
        }
      };
    },
  };
}
