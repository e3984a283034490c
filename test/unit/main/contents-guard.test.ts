import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { guardWebContents, type GuardedContents } from '@main/contents-guard';
import type { Logger } from '@main/logging';
import type { RendererLocation } from '@main/renderer-location';

const PAGE = 'app://order-desk/index.html';

/** A web contents as far as the guard can tell: an EventEmitter with a window-open handler. */
class FakeContents extends EventEmitter {
  openHandler: ((details: { url: string }) => { action: 'deny' }) | null = null;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void {
    this.openHandler = handler;
  }
  /** Emits a navigation event the way Electron does; true when the guard prevented it. */
  navigate(event: 'will-navigate' | 'will-frame-navigate' | 'will-redirect', url: string) {
    let prevented = false;
    this.emit(event, { url, preventDefault: () => (prevented = true) });
    return prevented;
  }
}

function setUp(location: RendererLocation = { entryUrl: PAGE }) {
  const contents = new FakeContents();
  const opened: string[] = [];
  const lines: string[] = [];
  const log: Logger = {
    debug: () => undefined,
    info: () => undefined,
    warn: (m) => lines.push(`warn ${m}`),
    error: (m) => lines.push(`error ${m}`),
    child: () => log,
  };
  guardWebContents(contents as unknown as GuardedContents, {
    location,
    openExternal: async (url) => {
      opened.push(url);
    },
    log,
  });
  return { contents, opened, lines };
}

const ELSEWHERE = [
  'https://example.invalid/',
  'http://localhost:5173/',
  'file:///etc/passwd',
  'file:///opt/Order%20Desk/resources/app.asar/out/renderer/index.html',
  'app://order-desk/other.html',
  'app://evil.example/index.html',
  'javascript:alert(1)',
  'data:text/html,<script>1</script>',
  'about:blank',
  'blob:app://order-desk/5f0c6b9e-0000-4000-8000-000000000000',
];

describe('guardWebContents', () => {
  it('registers every guard on the contents it is given', () => {
    const { contents } = setUp();
    expect(contents.openHandler).not.toBeNull();
    for (const event of [
      'will-navigate',
      'will-frame-navigate',
      'will-redirect',
      'will-attach-webview',
      'render-process-gone',
    ])
      expect(contents.listenerCount(event), event).toBe(1);
  });

  it('denies every new window; an http(s) link goes to the system browser', () => {
    const { contents, opened, lines } = setUp();
    for (const url of ['https://www.ups.com/track?tracknum=1Z', 'http://example.com/'])
      expect(contents.openHandler!({ url })).toEqual({ action: 'deny' });
    for (const url of ['about:blank', 'file:///etc/passwd', 'javascript:alert(1)', PAGE])
      expect(contents.openHandler!({ url })).toEqual({ action: 'deny' });
    expect(opened).toEqual(['https://www.ups.com/track?tracknum=1Z', 'http://example.com/']);
    expect(lines.filter((l) => l.includes('refused to open a window'))).toHaveLength(4);
  });

  it('lets the main frame and every frame navigate only to our page', () => {
    const { contents, lines } = setUp();
    for (const event of ['will-navigate', 'will-frame-navigate', 'will-redirect'] as const) {
      expect(contents.navigate(event, PAGE), event).toBe(false);
      expect(contents.navigate(event, `${PAGE}#/orders`), event).toBe(false);
      for (const url of ELSEWHERE)
        expect(contents.navigate(event, url), `${event} ${url}`).toBe(true);
    }
    expect(lines.filter((l) => l.startsWith('warn blocked'))).toHaveLength(3 * ELSEWHERE.length);
  });

  it('lets the dev server navigate only when there is one', () => {
    const { contents } = setUp({ entryUrl: PAGE, devServerUrl: 'http://localhost:5173/' });
    expect(contents.navigate('will-navigate', 'http://localhost:5173/')).toBe(false);
    expect(contents.navigate('will-frame-navigate', 'http://localhost:5174/')).toBe(true);
  });

  it('never attaches a <webview>', () => {
    const { contents, lines } = setUp();
    let prevented = false;
    contents.emit(
      'will-attach-webview',
      { preventDefault: () => (prevented = true) },
      { nodeIntegration: false },
      { src: PAGE },
    );
    expect(prevented).toBe(true);
    expect(lines).toContain('warn refused to attach a <webview>');
  });

  it('logs a renderer process that dies', () => {
    const { contents, lines } = setUp();
    contents.emit('render-process-gone', {}, { reason: 'crashed', exitCode: 139 });
    expect(lines).toContain('error renderer process gone: crashed (exit code 139)');
  });
});
