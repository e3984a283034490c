import { describe, expect, it } from 'vitest';
import {
  createInvokeHandler,
  isTrustedRendererUrl,
  REFUSED_SENDER,
  type RendererLocation,
} from '../../src/main/ipc/sender';
import type { Logger } from '../../src/main/logging';

const FILE = 'file:///opt/Order%20Desk/resources/app.asar/out/renderer/index.html';
const built: RendererLocation = { rendererFileUrl: FILE };
const dev: RendererLocation = { rendererFileUrl: FILE, devServerUrl: 'http://localhost:5173' };

describe('isTrustedRendererUrl', () => {
  it('trusts the built index.html, with or without a #route', () => {
    expect(isTrustedRendererUrl(FILE, built)).toBe(true);
    expect(isTrustedRendererUrl(`${FILE}#/catalog/products/12`, built)).toBe(true);
    // The same file spelled with a dot segment is the same file.
    expect(
      isTrustedRendererUrl(
        'file:///opt/Order%20Desk/resources/app.asar/out/preload/../renderer/index.html',
        built,
      ),
    ).toBe(true);
  });

  it('refuses other files, lookalike names and other hosts', () => {
    for (const url of [
      'file:///opt/Order%20Desk/resources/app.asar/out/renderer/index.html.evil',
      'file:///opt/Order%20Desk/resources/app.asar/out/renderer/index.htm',
      'file:///opt/Order%20Desk/resources/app.asar/out/renderer/other.html',
      'file:///tmp/out/renderer/index.html',
      'file:///opt/Order%20Desk/resources/app.asar/out/renderer/index.html/x',
      'file://evil.example/opt/Order%20Desk/resources/app.asar/out/renderer/index.html',
      `${FILE}?next=elsewhere`,
    ])
      expect(isTrustedRendererUrl(url, built), url).toBe(false);
  });

  it('refuses javascript:, about:blank, data:, blob: and garbage', () => {
    for (const url of [
      'javascript:alert(1)',
      'about:blank',
      'about:srcdoc',
      'data:text/html,<script>1</script>',
      `blob:${FILE}`,
      '',
      'not a url',
      null,
      undefined,
      42,
    ])
      expect(isTrustedRendererUrl(url, built), String(url)).toBe(false);
  });

  it('trusts the dev server origin only when there is one', () => {
    expect(isTrustedRendererUrl('http://localhost:5173/', dev)).toBe(true);
    expect(isTrustedRendererUrl('http://localhost:5173/#/settings', dev)).toBe(true);
    expect(isTrustedRendererUrl('http://localhost:5173/', built)).toBe(false);
    expect(isTrustedRendererUrl(FILE, dev)).toBe(true);
  });

  it('refuses other origins and lookalikes of the dev server', () => {
    for (const url of [
      'http://localhost:5174/',
      'https://localhost:5173/',
      'http://127.0.0.1:5173/',
      'http://localhost.evil.example:5173/',
      'http://evil.example/?http://localhost:5173/',
      'http://user@localhost:5173/',
      'ws://localhost:5173/',
    ])
      expect(isTrustedRendererUrl(url, dev), url).toBe(false);
  });

  it('never trusts a dev server URL that is not http(s)', () => {
    const odd: RendererLocation = { rendererFileUrl: FILE, devServerUrl: 'javascript:alert(1)' };
    expect(isTrustedRendererUrl('javascript:alert(1)', odd)).toBe(false);
  });
});

describe('createInvokeHandler', () => {
  const warnings: string[] = [];
  const log: Logger = {
    debug: () => undefined,
    info: () => undefined,
    warn: (m) => warnings.push(m),
    error: (m) => warnings.push(m),
    child: () => log,
  };
  const calls: unknown[][] = [];
  const handler = createInvokeHandler({
    location: built,
    log,
    dispatch: async (channel, args) => {
      calls.push([channel, args]);
      if (channel === 'boom') throw new Error('secret-ish detail');
      return { ok: true, value: { echoed: args } };
    },
  });

  it('dispatches a call from our main frame', async () => {
    calls.length = 0;
    expect(
      await handler({ url: `${FILE}#/`, isOurMainFrame: true }, 'app.state', { a: 1 }),
    ).toEqual({ ok: true, value: { echoed: { a: 1 } } });
    expect(calls).toEqual([['app.state', { a: 1 }]]);
  });

  it('refuses, without dispatching, a frame that is gone, not ours, or elsewhere', async () => {
    calls.length = 0;
    warnings.length = 0;
    expect(await handler(null, 'app.state', {})).toEqual(REFUSED_SENDER);
    expect(await handler({ url: FILE, isOurMainFrame: false }, 'app.state', {})).toEqual(
      REFUSED_SENDER,
    );
    expect(
      await handler({ url: 'https://evil.example/', isOurMainFrame: true }, 'app.state', {}),
    ).toEqual(REFUSED_SENDER);
    expect(calls).toEqual([]);
    expect(warnings).toHaveLength(3);
    expect(REFUSED_SENDER).toMatchObject({ ok: false, error: { kind: 'internal' } });
  });

  it('answers an internal error, not a throw, when the dispatcher fails', async () => {
    const answer = await handler({ url: FILE, isOurMainFrame: true }, 'boom', {});
    expect(answer).toMatchObject({ ok: false, error: { kind: 'internal' } });
    expect(JSON.stringify(answer)).not.toContain('secret-ish');
  });
});
