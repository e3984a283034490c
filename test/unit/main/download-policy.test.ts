import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { guardDownloads, isOwnSave, type DownloadingSession } from '@main/download-policy';
import type { Logger } from '@main/logging';
import type { RendererLocation } from '@main/renderer-location';

const PAGE = 'app://order-desk/index.html';
const built: RendererLocation = { entryUrl: PAGE };
const dev: RendererLocation = { entryUrl: PAGE, devServerUrl: 'http://localhost:5173/' };
const SAVE = 'blob:app://order-desk/0b5a1c9e-4f7d-4a53-9d8e-6f2f3c1d7e10';

const save = (url: string, pageUrl: string | null = `${PAGE}#/orders`, urlChain = [url]) => ({
  url,
  urlChain,
  pageUrl,
});

describe('isOwnSave', () => {
  it("allows the page's own Blob download (saveTextFile), from any route of our page", () => {
    expect(isOwnSave(save(SAVE), built)).toBe(true);
    expect(isOwnSave(save(SAVE, PAGE), built)).toBe(true);
    expect(isOwnSave(save(SAVE, `${PAGE}#/protocols?x=1`), built)).toBe(true);
  });

  it("allows the dev server's Blob downloads only when there is a dev server", () => {
    const url = 'blob:http://localhost:5173/0b5a1c9e-4f7d-4a53-9d8e-6f2f3c1d7e10';
    expect(isOwnSave(save(url, 'http://localhost:5173/#/orders'), dev)).toBe(true);
    expect(isOwnSave(save(url, 'http://localhost:5173/#/orders'), built)).toBe(false);
    expect(isOwnSave(save(SAVE), dev)).toBe(true);
  });

  it('refuses every download that is not a Blob of our origin', () => {
    for (const url of [
      'https://example.com/setup.exe',
      'http://127.0.0.1:4010/v1/orders',
      'data:text/csv,a,b',
      'file:///etc/passwd',
      'app://order-desk/index.html',
      'blob:https://evil.example/0b5a1c9e',
      'blob:app://elsewhere/0b5a1c9e',
      'blob:app://order-desk:8080/0b5a1c9e',
      'blob:app://user:pass@order-desk/0b5a1c9e',
      'blob:null/0b5a1c9e',
      'blob:',
      '',
    ])
      expect(isOwnSave(save(url), built), url).toBe(false);
  });

  it('refuses a download that was redirected', () => {
    expect(isOwnSave(save(SAVE, PAGE, ['https://evil.example/x.csv', SAVE]), built)).toBe(false);
  });

  it('refuses a Blob download not started by our page', () => {
    expect(isOwnSave(save(SAVE, null), built)).toBe(false);
    expect(isOwnSave(save(SAVE, 'https://evil.example/'), built)).toBe(false);
    expect(isOwnSave(save(SAVE, 'app://order-desk/other.html'), built)).toBe(false);
    expect(isOwnSave(save(SAVE, 'about:blank'), built)).toBe(false);
  });
});

describe('guardDownloads', () => {
  function setUp() {
    const ses = new EventEmitter();
    const lines: string[] = [];
    const log: Logger = {
      debug: () => undefined,
      info: () => undefined,
      warn: (m) => lines.push(m),
      error: (m) => lines.push(m),
      child: () => log,
    };
    guardDownloads(ses as unknown as DownloadingSession, { location: built, log });
    const download = (url: string, contents: { getURL(): string } | null, chain = [url]) => {
      let cancelled = false;
      ses.emit(
        'will-download',
        { preventDefault: () => (cancelled = true) },
        { getURL: () => url, getURLChain: () => chain },
        contents,
      );
      return cancelled;
    };
    return { download, lines };
  }
  const ourPage = { getURL: () => `${PAGE}#/orders` };

  it("lets the app's own save go ahead, untouched and unlogged", () => {
    const { download, lines } = setUp();
    expect(download(SAVE, ourPage)).toBe(false);
    expect(lines).toEqual([]);
  });

  it('cancels a download started by navigating to a remote URL, and logs it', () => {
    const { download, lines } = setUp();
    expect(download('https://evil.example/invoice.pdf.exe', ourPage)).toBe(true);
    expect(lines).toEqual(['cancelled a download of "https://evil.example/invoice.pdf.exe"']);
  });

  it('cancels a download with no page, or whose page is gone', () => {
    const { download } = setUp();
    expect(download(SAVE, null)).toBe(true);
    expect(
      download(SAVE, {
        getURL: () => {
          throw new Error('Object has been destroyed');
        },
      }),
    ).toBe(true);
  });
});
