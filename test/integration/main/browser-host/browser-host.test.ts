import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserHost, type BrowserHost } from '@main/browser-host';
import { MemoryCredentialStore } from '@main/connections/keychain';
import { Redactor, silentLogger } from '@main/logging';
import { BROWSER_HOST_PATHS } from '@shared/ipc';
import { createOrderDeskApi } from '@shared/ipc-bridge';
import { registerContractSuite } from '@test/integration/main/ipc/contract-suite';
import { FAKE_BUILD_CSP, fakeBuild } from '@test/support/fake-build';
import { connectSocketTransport, openSocket } from '@test/support/ws-client';

registerContractSuite('browser', async ({ dataDir, credentials, embeddedDb }) => {
  const host = await startBrowserHost({
    port: 0,
    ...fakeBuild(dataDir),
    dataDir,
    credentials,
    log: silentLogger,
    redactor: new Redactor(),
    embeddedDb,
  });
  const transport = await connectSocketTransport(host.origin, host.token);
  return {
    api: createOrderDeskApi(transport),
    raw: (channel, args) => transport.invoke(channel as never, args),
    rawEvents: (listener) => transport.subscribe(listener),
    core: host.core,
    openedUrls: null, // the bridge opens the tab itself
    savedPdfs: null, // the browser's print dialog saves PDFs
    updater: null, // no Electron: update settings only
    async close() {
      await transport.close();
      await host.close();
    },
  };
});

describe('browser host', () => {
  let dir: string;
  let host: BrowserHost;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'order-desk-host-'));
    host = await startBrowserHost({
      ...fakeBuild(dir),
      dataDir: dir,
      credentials: new MemoryCredentialStore(),
      log: silentLogger,
      redactor: new Redactor(),
    });
  });
  afterAll(async () => {
    await host?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('listens on 127.0.0.1 and prints a URL that carries a random token', () => {
    expect(host.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(host.url).toBe(`${host.origin}/#token=${host.token}`);
    expect(host.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('serves index.html with the bridge before the renderer, CSP meta intact', async () => {
    for (const path of ['/', '/index.html']) {
      const res = await fetch(`${host.origin}${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      const html = await res.text();
      const bridge = html.indexOf(`<script src="${BROWSER_HOST_PATHS.bridge}"></script>`);
      const renderer = html.indexOf('<script type="module"');
      expect(bridge).toBeGreaterThan(0);
      expect(bridge).toBeLessThan(renderer);
      expect(html).toContain(`content="${FAKE_BUILD_CSP}"`);
    }
  });

  it('serves the bridge script and the static assets; 404 for anything else', async () => {
    const bridge = await fetch(`${host.origin}${BROWSER_HOST_PATHS.bridge}`);
    expect(bridge.status).toBe(200);
    expect(bridge.headers.get('content-type')).toMatch(/javascript/);
    expect(await bridge.text()).toContain('window.orderDesk');
    const asset = await fetch(`${host.origin}/assets/index-abc123.js`);
    expect(asset.status).toBe(200);
    expect(await asset.text()).toContain('renderer');
    for (const path of ['/nope', '/assets/missing.js', '/../bridge.js', '/__order-desk/other']) {
      expect((await fetch(`${host.origin}${path}`)).status, path).toBe(404);
    }
  });

  it('refuses requests addressed to another host name (DNS rebinding)', async () => {
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${host.origin}/`, { headers: { host: 'evil.example:80' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(403);
  });

  it('refuses a WebSocket without the token or with a wrong one', async () => {
    await expect(openSocket(host.origin, { token: null })).rejects.toThrow(/HTTP 401/);
    await expect(openSocket(host.origin, { token: '' })).rejects.toThrow(/HTTP 401/);
    await expect(openSocket(host.origin, { token: `${host.token}x` })).rejects.toThrow(/HTTP 401/);
    const other = `${host.token.slice(0, -1)}${host.token.endsWith('A') ? 'B' : 'A'}`;
    await expect(openSocket(host.origin, { token: other })).rejects.toThrow(/HTTP 401/);
  });

  it('refuses a WebSocket from a foreign origin, even with the token', async () => {
    for (const originHeader of [
      'http://evil.example',
      'http://localhost:1',
      host.origin.replace('127.0.0.1', 'localhost'),
      'null',
    ]) {
      await expect(openSocket(host.origin, { token: host.token, originHeader })).rejects.toThrow(
        /HTTP 403/,
      );
    }
  });

  it('answers an unreadable message with invalid-arguments and keeps the socket open', async () => {
    const ws = await openSocket(host.origin, { token: host.token });
    try {
      const next = () =>
        new Promise<unknown>((resolve) =>
          ws.once('message', (data) => resolve(JSON.parse(String(data)))),
        );
      for (const text of ['not json', '{"id":"x","channel":"app.state"}', '[]']) {
        const answer = next();
        ws.send(text);
        expect(await answer).toMatchObject({
          id: null,
          result: { ok: false, error: { kind: 'invalid-arguments' } },
        });
      }
      const answer = next();
      ws.send(JSON.stringify({ id: 7, channel: 'app.state', args: {} }));
      expect(await answer).toMatchObject({
        id: 7,
        result: { ok: true, value: { transport: 'browser' } },
      });
    } finally {
      ws.close();
    }
  });

  it('stops at once while a tab neither answers nor closes: its socket is cut', async () => {
    const own = mkdtempSync(join(tmpdir(), 'order-desk-host-'));
    const stopping = await startBrowserHost({
      ...fakeBuild(own),
      dataDir: own,
      credentials: new MemoryCredentialStore(),
      log: silentLogger,
      redactor: new Redactor(),
    });
    try {
      const tab = await openSocket(stopping.origin, { token: stopping.token });
      // A frozen tab: it reads nothing more, so it never answers the closing handshake.
      (tab as unknown as { _socket: { pause(): void } })._socket.pause();
      const cut = new Promise((resolve) => tab.once('close', resolve));
      // Waiting on that tab would outlast this test's timeout (ws waits 30 s for an answer).
      await stopping.close();
      (tab as unknown as { _socket: { resume(): void } })._socket.resume();
      await cut;
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  });

  it('fails to start with a clear message when the renderer is not built', async () => {
    await expect(
      startBrowserHost({
        rendererDir: join(dir, 'no-such-build'),
        bridgeFile: join(dir, 'bridge.js'),
        dataDir: dir,
        credentials: new MemoryCredentialStore(),
        log: silentLogger,
        redactor: new Redactor(),
      }),
    ).rejects.toThrow(/built renderer is missing .*npm run build:renderer/);
  });
});
