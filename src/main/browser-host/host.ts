import fastifyStatic from '@fastify/static';
import fastifyWebsocket from '@fastify/websocket';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { WebSocket } from 'ws';
import { z } from 'zod';
import { BROWSER_HOST_PATHS, WireCall, type IpcEventName } from '@shared/ipc';
import { CSV_TEXT_MAX } from '@shared/protocol-csv-views';
import type { Core } from '../core';
import type { CredentialStore } from '../connections/keychain';
import { createIpcDispatcher, type IpcDispatcher } from '../ipc/dispatch';
import { forwardIpcEvents } from '../ipc/event-forwarding';
import type { Logger, Redactor } from '../logging';
import { newToken, tokenMatches } from './access';
import { injectBridge } from './index-html';
import { Startup } from '../startup';
import type { UpdaterPort } from '../updates/updater-port';

export interface BrowserHostOptions {
  /** 0 (default): a free port. */
  port?: number;
  /** The built renderer (e.g. out/renderer). */
  rendererDir: string;
  /** The built browser bridge script (e.g. out/browser/bridge.js). */
  bridgeFile: string;
  dataDir: string;
  credentials: CredentialStore;
  log: Logger;
  redactor: Redactor;
  /** The embedded sandbox's database; default in dataDir. */
  embeddedDb?: string;
  /**
   * An updater for the desktop app's update screens (a fake, in tests). The CLI passes none: the
   * browser host has no updater, so Settings keeps the update settings only.
   */
  updater?: UpdaterPort;
  /** The version app.state reports; default the package version. */
  version?: string;
}

export interface BrowserHost {
  /** What to open: http://127.0.0.1:PORT/#token=... */
  url: string;
  origin: string;
  token: string;
  /** Opening the data folder: its phase is what the page shows until it is ready. */
  startup: Startup;
  /** Resolves with the Core once the data is open. */
  ready: Promise<Core>;
  /** The Core; throws until the data is open (await `ready` first). */
  readonly core: Core;
  close(): Promise<void>;
}

const HOST = '127.0.0.1';
/**
 * Bigger messages are refused by the WebSocket server. The largest call is a CSV import: its
 * text (at most CSV_TEXT_MAX characters, checked by the contract) as JSON takes at most 6 bytes
 * a character (a control character written \u0000; UTF-8 takes at most 3), so any text the
 * contract would judge arrives, and an oversize one gets the contract's message, not a closed socket.
 */
export const MAX_MESSAGE_BYTES = 6 * CSV_TEXT_MAX + 1024 * 1024;

async function readBuilt(file: string, what: string, hint: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch {
    throw new Error(`The ${what} is missing at ${file}: run \`${hint}\` first.`);
  }
}

const SocketQuery = z.object({ token: z.string().max(200).optional() });

/**
 * The browser host: the main-process services in plain Node, serving the built renderer and the
 * IPC contract over one WebSocket, on 127.0.0.1 only. The socket requires the random per-launch
 * token and an Origin equal to the host's own; every message is checked with zod both ways.
 * It resolves once it listens and the data folder is open, or the page has something else to
 * show first: the encryption's progress, or a question for the user (await `ready` for the Core).
 */
export async function startBrowserHost(options: BrowserHostOptions): Promise<BrowserHost> {
  const rendererDir = resolve(options.rendererDir);
  const indexHtml = injectBridge(
    await readBuilt(join(rendererDir, 'index.html'), 'built renderer', 'npm run build:renderer'),
  );
  const bridgeJs = await readBuilt(
    resolve(options.bridgeFile),
    'browser bridge script',
    'npm run build:browser',
  );
  const log = options.log.child('browser-host');
  const token = newToken();
  // Takes the data folder now (DataDirInUseError when another process has it); the stores are
  // opened (encrypted, the first time) while the page shows the progress.
  const startup = Startup.begin({
    dataDir: options.dataDir,
    credentials: options.credentials,
    log: options.log,
    redactor: options.redactor,
    ...(options.embeddedDb ? { embeddedDb: options.embeddedDb } : {}),
    ...(options.updater ? { updater: options.updater } : {}),
  });
  const dispatcher = createIpcDispatcher({
    startup,
    host: {
      transport: 'browser',
      version: options.version ?? process.env.npm_package_version ?? '0.0.0',
      platform: process.platform,
      // The bridge opens the page in a new tab once the call is answered.
      openExternal: async () => undefined,
    },
    log: options.log.child('ipc'),
  });

  /** Set once listening: http://127.0.0.1:PORT and its Host header value. */
  let origin = '';
  let hostHeader = '';
  // Stopping never waits on a tab: its requests and socket are cut (the page says the host is
  // down and reconnects to the next launch).
  const app = Fastify({ logger: false, bodyLimit: MAX_MESSAGE_BYTES, forceCloseConnections: true });

  // A page reached by another name (DNS rebinding) is not ours to serve.
  app.addHook('onRequest', async (request, reply) => {
    if (!hostHeader || request.headers.host !== hostHeader) {
      await reply
        .code(403)
        .type('text/plain')
        .send('Forbidden: use the address Order Desk printed.');
    }
  });

  await app.register(fastifyWebsocket, {
    options: { maxPayload: MAX_MESSAGE_BYTES },
    // Not a closing handshake that waits up to 30 s on a tab that no longer answers.
    preClose: (done) => {
      for (const client of app.websocketServer.clients) client.terminate();
      app.websocketServer.close(() => done());
    },
  });
  await app.register(fastifyStatic, { root: rendererDir, index: false, wildcard: true });

  const sendIndex = (_request: FastifyRequest, reply: FastifyReply) =>
    reply.header('cache-control', 'no-store').type('text/html; charset=utf-8').send(indexHtml);
  app.get('/', sendIndex);
  app.get('/index.html', sendIndex);
  app.get(BROWSER_HOST_PATHS.bridge, (_request, reply) =>
    reply.header('cache-control', 'no-store').type('text/javascript; charset=utf-8').send(bridgeJs),
  );

  // Browsers ask for it on their own; a build without one gets "no content", not a console error.
  if (!existsSync(join(rendererDir, 'favicon.ico'))) {
    app.get('/favicon.ico', (_request, reply) => reply.code(204).send());
  }

  /** The request carries this launch's token in its query. */
  const hasLaunchToken = (request: FastifyRequest) => {
    const query = SocketQuery.safeParse(request.query);
    return query.success && tokenMatches(token, query.data.token);
  };

  const checkAccess = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!hasLaunchToken(request)) {
      log.warn('refused a WebSocket without the launch token');
      return reply
        .code(401)
        .type('text/plain')
        .send('Unauthorized: open the URL Order Desk printed.');
    }
    if (request.headers.origin !== origin) {
      log.warn('refused a WebSocket from a foreign origin');
      return reply.code(403).type('text/plain').send('Forbidden origin.');
    }
  };

  // A tab can tell a stale token (a tab of an earlier launch) from a host that is down: the
  // WebSocket's refusal is invisible to the page, this answer is not. It reveals nothing else.
  app.get(BROWSER_HOST_PATHS.tokenCheck, (request, reply) =>
    reply
      .header('cache-control', 'no-store')
      .code(hasLaunchToken(request) ? 204 : 401)
      .send(),
  );

  app.get(BROWSER_HOST_PATHS.socket, { websocket: true, preValidation: checkAccess }, (socket) =>
    serveSocket(socket, dispatcher, startup, log),
  );

  const port = options.port ?? 0;
  try {
    await app.listen({ host: HOST, port });
  } catch (error) {
    await app.close().catch(() => undefined);
    await startup.close();
    const code = (error as { code?: unknown }).code;
    if (code === 'EADDRINUSE')
      throw new Error(`Port ${port} on ${HOST} is already in use: choose another with --port.`, {
        cause: error,
      });
    throw error;
  }
  const address = app.server.address() as { port: number };
  hostHeader = `${HOST}:${address.port}`;
  origin = `http://${hostHeader}`;
  await startup.shown();
  let closing: Promise<void> | null = null;
  return {
    url: `${origin}/#token=${token}`,
    origin,
    token,
    startup,
    ready: startup.ready,
    get core() {
      if (!startup.core) throw new Error(`The data is not open yet (${startup.state.phase}).`);
      return startup.core;
    },
    close: () =>
      (closing ??= (async () => {
        await app.close();
        await startup.close();
      })()),
  };
}

/** One browser tab: answers its calls and pushes every event to it. */
function serveSocket(
  socket: WebSocket,
  dispatcher: IpcDispatcher,
  startup: Startup,
  log: Logger,
): void {
  const send = (message: unknown) => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
  };
  const stopEvents = forwardIpcEvents(
    startup,
    (event: IpcEventName, payload) => send({ event, payload }),
    log,
  );
  socket.on('close', stopEvents);
  socket.on('message', (data, isBinary) => {
    void answer(isBinary ? null : data.toString()).then(send);
  });

  async function answer(text: string | null) {
    let raw: unknown;
    try {
      raw = text === null ? null : JSON.parse(text);
    } catch {
      raw = null;
    }
    const call = WireCall.safeParse(raw);
    if (!call.success) {
      const id = (raw as { id?: unknown } | null)?.id;
      return {
        id: typeof id === 'number' && Number.isSafeInteger(id) && id >= 0 ? id : null,
        result: {
          ok: false,
          error: {
            kind: 'invalid-arguments',
            message: 'Unreadable message: expected JSON {id, channel, args}.',
            fieldErrors: [],
          },
        },
      };
    }
    return {
      id: call.data.id,
      result: await dispatcher.dispatch(call.data.channel, call.data.args),
    };
  }
}
