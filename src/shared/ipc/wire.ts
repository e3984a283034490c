import { z } from 'zod';
import { IpcResult } from './errors';

/** Names of the two wire messages both transports use. */
export const IPC_INVOKE = 'order-desk:invoke';
export const IPC_EVENT = 'order-desk:event';

// The browser host's wire: one WebSocket carrying the same contract (see src/main/browser-host).

export const BROWSER_HOST_PATHS = {
  /** The WebSocket; it requires `?token=` (the per-launch token) and the host's own Origin. */
  socket: '/__order-desk/ws',
  /** The bridge script injected into index.html before the renderer's module script. */
  bridge: '/__order-desk/bridge.js',
  /** GET ?token=: 204 when the token is this launch's, 401 when not (a tab of an earlier launch). */
  tokenCheck: '/__order-desk/token-check',
} as const;

/** Browser -> host: one call. `id` pairs the answer with the call. */
export const WireCall = z.object({
  id: z.int().min(0).max(Number.MAX_SAFE_INTEGER),
  channel: z.string().max(200),
  args: z.unknown(),
});
export type WireCall = z.infer<typeof WireCall>;

/** Host -> browser: the answer to a call (id null when the call itself was unreadable). */
export const WireAnswer = z.object({
  id: z.int().min(0).max(Number.MAX_SAFE_INTEGER).nullable(),
  result: IpcResult(z.unknown()),
});
/** Host -> browser: a pushed event (its payload is checked against IPC_EVENTS on arrival). */
export const WireEvent = z.object({ event: z.string(), payload: z.unknown() });
export const WireHostMessage = z.union([WireAnswer, WireEvent]);
export type WireHostMessage = z.infer<typeof WireHostMessage>;
