/**
 * The browser host's bridge: runs in the page before the renderer and sets `window.orderDesk`
 * from the same contract as the Electron preload, over the host's WebSocket. Built as one IIFE
 * script (vite.browser-bridge.config.ts) that the host injects into index.html.
 */
import { ChangeSubject } from '../shared/core-events';
import { createOrderDeskApi, type IpcTransport } from '../shared/ipc-bridge';
import {
  BROWSER_HOST_PATHS,
  WireHostMessage,
  type IpcChannel,
  type IpcError,
  type OrderDeskApi,
} from '../shared/ipc';

const TOKEN_KEY = 'order-desk.token';
const FIRST_RETRY_MS = 250;
const MAX_RETRY_MS = 5_000;
/** A call waiting for a connection that does not come is answered 'network' after this long. */
const QUEUE_TIMEOUT_MS = 15_000;

type Envelope = { ok: false; error: IpcError } | { ok: true; value: unknown };

const networkFailure = (message: string): Envelope => ({
  ok: false,
  error: { kind: 'network', message, fieldErrors: [] },
});

/** What a call answers when this tab's token is not the running host's. */
const staleTokenFailure = (token: string | null): Envelope => ({
  ok: false,
  error: {
    kind: 'internal',
    message:
      token === null
        ? 'This page has no access token. Open the address the browser host printed (it ends with #token=…); pasting it into this tab is enough.'
        : 'This tab was opened from an earlier launch of the browser host: its access token no longer works. Paste the address the browser host printed for this launch into this tab (it ends with #token=…).',
    fieldErrors: [],
  },
});

/** A `#token=...` in the address, if there is one. */
const tokenInHash = (): string | null =>
  /^#token=([A-Za-z0-9_-]+)$/.exec(window.location.hash)?.[1] ?? null;

/** The token from `#token=...` (then taken out of the address bar), else from this tab's session. */
function takeToken(): string | null {
  const fromHash = tokenInHash();
  if (fromHash) {
    sessionStorage.setItem(TOKEN_KEY, fromHash);
    history.replaceState(history.state, '', window.location.pathname + window.location.search);
    return fromHash;
  }
  return sessionStorage.getItem(TOKEN_KEY);
}

/**
 * A new address pasted into this tab (only its #token=... differs, so the browser does not load
 * the page again): keep the new token and start afresh with it.
 */
function followNewToken(current: string | null): void {
  window.addEventListener('hashchange', () => {
    const next = tokenInHash();
    if (!next) return;
    if (next === current) {
      history.replaceState(history.state, '', window.location.pathname + window.location.search);
      return;
    }
    sessionStorage.setItem(TOKEN_KEY, next);
    history.replaceState(history.state, '', window.location.pathname + window.location.search);
    window.location.reload();
  });
}

/** Asks the host whether the token is this launch's: true, false, or null when it cannot say. */
async function tokenAccepted(token: string | null): Promise<boolean | null> {
  try {
    const res = await fetch(
      `${BROWSER_HOST_PATHS.tokenCheck}?token=${encodeURIComponent(token ?? '')}`,
      { cache: 'no-store' },
    );
    if (res.status === 204) return true;
    if (res.status === 401) return false;
    return null;
  } catch {
    return null; // the host is not running (or not reachable)
  }
}

interface Pending {
  channel: IpcChannel;
  args: unknown;
  resolve: (envelope: Envelope) => void;
  timer: ReturnType<typeof setTimeout> | null;
}

function createSocketTransport(token: string | null): IpcTransport {
  const listeners = new Set<(event: string, payload: unknown) => void>();
  /** Said to the page as it would be by the host: the link's state, and what changed meanwhile. */
  const tell = (event: string, payload: unknown) => {
    for (const listener of [...listeners]) listener(event, payload);
  };
  /** Whether the socket is open; the page is told when it closes and when it opens again. */
  let linkUp = false;
  let everOpened = false;
  const queued: (Pending & { id: number })[] = [];
  const sent = new Map<number, Pending>();
  let nextId = 1;
  let socket: WebSocket | null = null;
  let retryMs = FIRST_RETRY_MS;
  /** The host said the token is not its own: no call can succeed until a new address is given. */
  let stale = false;

  const failQueued = () => {
    for (const call of queued.splice(0)) {
      if (call.timer !== null) clearTimeout(call.timer);
      call.resolve(staleTokenFailure(token));
    }
  };

  const url = `${window.location.protocol === 'https:' ? 'wss' : 'ws'}://${window.location.host}${
    BROWSER_HOST_PATHS.socket
  }?token=${encodeURIComponent(token ?? '')}`;

  const flush = () => {
    while (socket?.readyState === WebSocket.OPEN && queued.length > 0) {
      const call = queued.shift()!;
      if (call.timer !== null) clearTimeout(call.timer);
      call.timer = null;
      sent.set(call.id, call);
      socket.send(JSON.stringify({ id: call.id, channel: call.channel, args: call.args }));
    }
  };

  const onMessage = (text: unknown) => {
    let raw: unknown;
    try {
      raw = typeof text === 'string' ? JSON.parse(text) : null;
    } catch {
      raw = null;
    }
    const message = WireHostMessage.safeParse(raw);
    if (!message.success) {
      console.error('order-desk: dropped an unreadable message from the host');
      return;
    }
    if ('event' in message.data) {
      tell(message.data.event, message.data.payload);
      return;
    }
    const { id, result } = message.data;
    const call = id === null ? undefined : sent.get(id);
    if (!call) return;
    sent.delete(id!);
    call.resolve(result);
  };

  const connect = () => {
    const ws = new WebSocket(url);
    socket = ws;
    let opened = false;
    ws.addEventListener('open', () => {
      opened = true;
      retryMs = FIRST_RETRY_MS;
      linkUp = true;
      if (everOpened) {
        // Back after a loss (the host restarted): anything may have changed meanwhile.
        tell('host-link', { up: true });
        tell('changed', { subjects: [...ChangeSubject.options] });
      }
      everOpened = true;
      flush();
    });
    ws.addEventListener('message', (event) => onMessage(event.data));
    ws.addEventListener('close', () => {
      if (socket === ws) socket = null;
      if (linkUp) {
        linkUp = false;
        tell('host-link', { up: false });
      }
      // Calls already sent may or may not have been carried out: the caller is told.
      for (const [id, call] of sent) {
        sent.delete(id);
        call.resolve(
          networkFailure(
            'The connection to Order Desk was lost before the answer arrived. Check the result and try again.',
          ),
        );
      }
      const retry = () => {
        setTimeout(connect, retryMs);
        retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
      };
      if (opened) {
        retry();
        return;
      }
      // Refused at once: a stale token is said now, not after QUEUE_TIMEOUT_MS; a host that is
      // down (or restarting) is tried again.
      void tokenAccepted(token).then((accepted) => {
        if (accepted === false) {
          stale = true;
          // Said on the page (every call answers so); for a developer, a warning here.
          console.warn("order-desk: this tab's access token is from an earlier launch");
          failQueued();
          return;
        }
        retry();
      });
    });
  };

  if (token === null) {
    console.error('order-desk: no launch token; open the URL the browser host printed');
  }
  connect();

  return {
    invoke(channel: IpcChannel, args: unknown): Promise<unknown> {
      return new Promise<Envelope>((resolve) => {
        const call = { id: nextId++, channel, args, resolve, timer: null } as Pending & {
          id: number;
        };
        if (stale) {
          resolve(staleTokenFailure(token));
          return;
        }
        call.timer = setTimeout(() => {
          const at = queued.indexOf(call);
          if (at < 0) return;
          queued.splice(at, 1);
          resolve(
            networkFailure(
              token === null
                ? 'Order Desk refused this page: open the address the browser host printed (it carries the access token).'
                : 'Order Desk cannot be reached. Is the browser host still running?',
            ),
          );
        }, QUEUE_TIMEOUT_MS);
        queued.push(call);
        flush();
      }).then((envelope) => {
        // Same feature as Electron's shell.openExternal: main checked the URL, the tab opens it.
        if (channel === 'app.openExternal' && envelope.ok) {
          window.open((args as { url: string }).url, '_blank', 'noopener,noreferrer');
        }
        return envelope;
      });
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

const launchToken = takeToken();
followNewToken(launchToken);
const api: OrderDeskApi = createOrderDeskApi(createSocketTransport(launchToken));
(window as unknown as { orderDesk: OrderDeskApi }).orderDesk = api;
