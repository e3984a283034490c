import WebSocket from 'ws';
import type { IpcTransport } from '@shared/ipc-bridge';
import { BROWSER_HOST_PATHS, WireHostMessage } from '@shared/ipc';

export interface SocketTransport extends IpcTransport {
  close(): Promise<void>;
}

/** Opens the browser host's WebSocket; rejects with the HTTP status when the host refuses it. */
export function openSocket(
  origin: string,
  options: { token?: string | null; originHeader?: string },
): Promise<WebSocket> {
  const query = options.token === null ? '' : `?token=${encodeURIComponent(options.token ?? '')}`;
  const ws = new WebSocket(`${origin.replace(/^http/, 'ws')}${BROWSER_HOST_PATHS.socket}${query}`, {
    origin: options.originHeader ?? origin,
  });
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => {
      reject(new Error(`refused with HTTP ${res.statusCode}`));
      ws.terminate();
    });
    ws.once('error', reject);
  });
}

/**
 * A Node counterpart of src/preload/browser.ts for the contract tests: the same wire messages
 * over the `ws` package, so createOrderDeskApi runs on top of it as it does in the page.
 */
export async function connectSocketTransport(
  origin: string,
  token: string,
): Promise<SocketTransport> {
  const ws = await openSocket(origin, { token });
  const pending = new Map<number, (result: unknown) => void>();
  const listeners = new Set<(event: string, payload: unknown) => void>();
  let nextId = 1;
  ws.on('message', (data) => {
    const message = WireHostMessage.parse(JSON.parse(String(data)));
    if ('event' in message) {
      for (const listener of [...listeners]) listener(message.event, message.payload);
    } else if (message.id !== null) {
      pending.get(message.id)?.(message.result);
      pending.delete(message.id);
    }
  });
  ws.on('close', () => {
    for (const [id, resolve] of pending) {
      pending.delete(id);
      resolve({ ok: false, error: { kind: 'network', message: 'closed', fieldErrors: [] } });
    }
  });
  return {
    invoke: (channel, args) =>
      new Promise((resolve) => {
        const id = nextId++;
        pending.set(id, resolve);
        ws.send(JSON.stringify({ id, channel, args }));
      }),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (ws.readyState === WebSocket.CLOSED) return resolve();
        ws.once('close', () => resolve());
        ws.close();
      }),
  };
}
