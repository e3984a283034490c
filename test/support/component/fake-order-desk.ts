import { act } from '@testing-library/react';
import {
  IPC_CALLS,
  IPC_EVENTS,
  IpcError,
  isIpcChannel,
  isIpcEventName,
  type IpcArgs,
  type IpcChannel,
  type IpcErrorKind,
  type IpcEventName,
  type IpcEventPayload,
  type IpcFieldError,
  type IpcParsedArgs,
  type IpcResult,
  type IpcValue,
  type OrderDeskApi,
} from '@shared/ipc';

/**
 * A fake window.orderDesk for component tests: each call is answered by the test's handler for
 * its channel, and the test pushes main's events with `emit`. Both ends are held to the real
 * contract (src/shared/ipc/), as main's dispatcher holds them: arguments the renderer sends and
 * answers a test gives are parsed with the channel's schemas, events with theirs, so a fake cannot
 * drift from what main would really send or accept. A call outside the contract, or with no
 * handler, fails the test (see `takeViolations`, checked after each test by setup.ts).
 */

/** A refusal a handler answers instead of a value: crosses as `{ ok: false, error }`. */
export class Refusal {
  constructor(readonly error: IpcError) {}
}

export const refuse = (
  kind: IpcErrorKind,
  message: string,
  fieldErrors: IpcFieldError[] = [],
): Refusal => new Refusal(IpcError.parse({ kind, message, fieldErrors }));

type Answer<C extends IpcChannel> = IpcValue<C> | Refusal;
export type Handler<C extends IpcChannel> = (
  args: IpcParsedArgs<C>,
) => Answer<C> | Promise<Answer<C>>;
export type Handlers = { [C in IpcChannel]?: Handler<C> };

export interface FakeOrderDesk {
  /** Every call, in order, with its argument as the renderer sent it. */
  readonly calls: readonly { channel: IpcChannel; args: unknown }[];
  /** The arguments of each call to one channel, in order. */
  argsOf<C extends IpcChannel>(channel: C): IpcArgs<C>[];
  /** Pushes an event as main would, and lets React finish what it starts. */
  emit<E extends IpcEventName>(event: E, payload: IpcEventPayload<E>): Promise<void>;
}

let violations: string[] = [];

/** After the promises queued now have run (a read answered at once, the render it causes). */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** What broke the contract since the last call (a call nobody answers, a bad argument or answer). */
export function takeViolations(): string[] {
  const taken = violations;
  violations = [];
  return taken;
}

const describeIssues = (error: { issues: readonly { path: PropertyKey[]; message: string }[] }) =>
  error.issues.map((i) => `${i.path.map(String).join('.') || '(root)'}: ${i.message}`).join('; ');

/** Installs the fake as window.orderDesk, answering from `handlers`. */
export function installOrderDesk(handlers: Handlers = {}): FakeOrderDesk {
  const calls: { channel: IpcChannel; args: unknown }[] = [];
  const listeners = new Map<IpcEventName, Set<(payload: unknown) => void>>();

  const answer = async (channel: unknown, args: unknown): Promise<IpcResult<unknown>> => {
    if (!isIpcChannel(channel)) {
      violations.push(`No such channel: ${String(channel)}`);
      return {
        ok: false,
        error: { kind: 'invalid-arguments', message: 'no such call', fieldErrors: [] },
      };
    }
    const contract = IPC_CALLS[channel];
    const parsed = contract.args.safeParse(args);
    if (!parsed.success) {
      const message = `Invalid arguments for ${channel}: ${describeIssues(parsed.error)}`;
      violations.push(message);
      // As main's dispatcher answers it, so the screen meets what it would meet in the app.
      return { ok: false, error: { kind: 'invalid-arguments', message, fieldErrors: [] } };
    }
    const handler = handlers[channel] as ((a: unknown) => unknown) | undefined;
    if (!handler) {
      violations.push(`${channel} was called, and this test gives no answer for it`);
      return { ok: false, error: { kind: 'internal', message: 'not answered', fieldErrors: [] } };
    }
    let value: unknown;
    try {
      value = await handler(parsed.data);
    } catch (error) {
      // Main turns a throw into an error answer; here it is the test's own mistake, so it is said.
      violations.push(`The test's handler for ${channel} threw: ${String(error)}`);
      return { ok: false, error: { kind: 'internal', message: 'handler threw', fieldErrors: [] } };
    }
    if (value instanceof Refusal) return { ok: false, error: value.error };
    const checked = contract.result.safeParse(value);
    if (!checked.success) {
      violations.push(
        `The test's answer to ${channel} breaks the contract: ${describeIssues(checked.error)}`,
      );
      return { ok: false, error: { kind: 'internal', message: 'bad answer', fieldErrors: [] } };
    }
    return { ok: true, value: checked.data };
  };

  const api: OrderDeskApi = {
    call: ((channel: IpcChannel, args: unknown) => {
      // A copy, as both transports send one: a later change of the renderer's object is not seen.
      calls.push({ channel, args: structuredClone(args) });
      return answer(channel, args);
    }) as OrderDeskApi['call'],
    on(event, listener) {
      if (!isIpcEventName(event)) violations.push(`No such event: ${String(event)}`);
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      const l = listener as (payload: unknown) => void;
      set.add(l);
      return () => set.delete(l);
    },
  };
  window.orderDesk = api;

  return {
    calls,
    argsOf: <C extends IpcChannel>(channel: C) =>
      calls.filter((c) => c.channel === channel).map((c) => c.args as IpcArgs<C>),
    async emit(event, payload) {
      // An event the contract refuses is the test's own mistake: said at once, where it is made.
      const checked = IPC_EVENTS[event].parse(payload);
      await act(async () => {
        for (const l of [...(listeners.get(event) ?? [])]) l(checked);
        await nextTask();
      });
    },
  };
}

/** Lets `ms` pass inside act: for "nothing happens after …", checked once the time is over. */
export async function pass(ms: number): Promise<void> {
  await act(() => new Promise<void>((resolve) => setTimeout(resolve, ms)));
}

/** Removes the fake (after each test). */
export function uninstallOrderDesk(): void {
  Reflect.deleteProperty(window, 'orderDesk');
}

/**
 * An answer the test gives when it chooses (to answer an old call late, say): a handler returns
 * `promise`; `resolve` settles it and lets React render what follows.
 */
export function later<T>(): { promise: Promise<T>; resolve(value: T): Promise<void> } {
  let settle!: (value: T) => void;
  const promise = new Promise<T>((resolve) => {
    settle = resolve;
  });
  return {
    promise,
    async resolve(value) {
      await act(async () => {
        settle(value);
        await nextTask();
      });
    },
  };
}
