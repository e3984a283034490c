import { describe, expect, it } from 'vitest';
import {
  decideRendererLocation,
  hasRendererOrigin,
  isTrustedRendererUrl,
  type RendererLocation,
} from '@main/renderer-location';

const PAGE = 'app://order-desk/index.html';
const built: RendererLocation = { entryUrl: PAGE };
const dev: RendererLocation = { entryUrl: PAGE, devServerUrl: 'http://localhost:5173/' };

describe('decideRendererLocation', () => {
  it('loads the app:// page when no dev server is named', () => {
    for (const env of [{}, { ELECTRON_RENDERER_URL: '' }])
      for (const isPackaged of [true, false])
        expect(decideRendererLocation({ isPackaged, env })).toEqual({
          location: { entryUrl: PAGE },
          loadUrl: PAGE,
          ignoredDevServer: null,
        });
  });

  it('honours ELECTRON_RENDERER_URL in an unpackaged app', () => {
    expect(
      decideRendererLocation({
        isPackaged: false,
        env: { ELECTRON_RENDERER_URL: 'http://localhost:5173' },
      }),
    ).toEqual({
      location: { entryUrl: PAGE, devServerUrl: 'http://localhost:5173/' },
      loadUrl: 'http://localhost:5173/',
      ignoredDevServer: null,
    });
  });

  it('ignores ELECTRON_RENDERER_URL in a packaged app, and does not trust its origin', () => {
    const decided = decideRendererLocation({
      isPackaged: true,
      env: { ELECTRON_RENDERER_URL: 'https://evil.example/' },
    });
    expect(decided.loadUrl).toBe(PAGE);
    expect(decided.location).toEqual({ entryUrl: PAGE });
    expect(decided.ignoredDevServer).toMatch(/packaged/);
    expect(isTrustedRendererUrl('https://evil.example/', decided.location)).toBe(false);
  });

  it('ignores a dev server URL that is not http(s) or carries credentials, even unpackaged', () => {
    for (const url of [
      'javascript:alert(1)',
      'file:///tmp/index.html',
      'app://order-desk/index.html',
      'http://user:pass@localhost:5173/',
      'not a url',
    ]) {
      const decided = decideRendererLocation({
        isPackaged: false,
        env: { ELECTRON_RENDERER_URL: url },
      });
      expect(decided.loadUrl, url).toBe(PAGE);
      expect(decided.location.devServerUrl, url).toBeUndefined();
      expect(decided.ignoredDevServer, url).toMatch(/http/);
    }
  });
});

describe('isTrustedRendererUrl', () => {
  it('trusts our app:// page, with or without a #route', () => {
    expect(isTrustedRendererUrl(PAGE, built)).toBe(true);
    expect(isTrustedRendererUrl(`${PAGE}#/catalog/products/12`, built)).toBe(true);
    // The same page spelled with a dot segment is the same page.
    expect(isTrustedRendererUrl('app://order-desk/assets/../index.html', built)).toBe(true);
  });

  it('refuses other pages and hosts of app://, and lookalikes', () => {
    for (const url of [
      'app://order-desk/',
      'app://order-desk/index.html.evil',
      'app://order-desk/index.htm',
      'app://order-desk/other.html',
      'app://order-desk/assets/index.html',
      'app://order-desk/index.html/x',
      'app://order-desk:8080/index.html',
      'app://evil.example/index.html',
      'app://order-desk.evil.example/index.html',
      'app://user@order-desk/index.html',
      `${PAGE}?next=elsewhere`,
      'apps://order-desk/index.html',
    ])
      expect(isTrustedRendererUrl(url, built), url).toBe(false);
  });

  it('no longer trusts the built page as a file://', () => {
    for (const url of [
      'file:///opt/Order%20Desk/resources/app.asar/out/renderer/index.html',
      'file:///tmp/out/renderer/index.html',
    ])
      expect(isTrustedRendererUrl(url, built), url).toBe(false);
  });

  it('refuses javascript:, about:blank, data:, blob: and garbage', () => {
    for (const url of [
      'javascript:alert(1)',
      'about:blank',
      'about:srcdoc',
      'data:text/html,<script>1</script>',
      `blob:${PAGE}`,
      'blob:app://order-desk/5f0c6b9e-0000-4000-8000-000000000000',
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
    expect(isTrustedRendererUrl(PAGE, dev)).toBe(true);
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
    const odd: RendererLocation = { entryUrl: PAGE, devServerUrl: 'javascript:alert(1)' };
    expect(isTrustedRendererUrl('javascript:alert(1)', odd)).toBe(false);
  });
});

describe('hasRendererOrigin', () => {
  it('is our app:// origin at any path, or the dev server origin when there is one', () => {
    expect(hasRendererOrigin('app://order-desk/0b5a1c9e', built)).toBe(true);
    expect(hasRendererOrigin('app://order-desk/index.html', built)).toBe(true);
    expect(hasRendererOrigin('http://localhost:5173/x', dev)).toBe(true);
    for (const url of [
      'http://localhost:5173/x',
      'app://elsewhere/x',
      'app://order-desk:1/x',
      'app://u:p@order-desk/x',
      'https://order-desk/x',
      'null/x',
      '',
      undefined,
    ])
      expect(hasRendererOrigin(url, built), String(url)).toBe(false);
    expect(hasRendererOrigin('http://localhost:5174/x', dev)).toBe(false);
  });
});
