import { _electron as electron, expect, test, type ElectronApplication } from '@playwright/test';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { OrderDeskApi } from '@shared/ipc';
import { repoFile } from '@test/support/repo-files';

/**
 * The page's globals this test looks at (the test's tsconfig has no DOM library). Callbacks of
 * page.evaluate run in the page, so each one names globalThis itself.
 */
interface PageGlobals {
  orderDesk: OrderDeskApi;
  open(url: string): unknown;
  location: { href: string };
  marker?: string;
  fetch(url: string): Promise<{ status: number; headers: { get(name: string): string | null } }>;
  Blob: new (parts: string[], options: { type: string }) => object;
  URL: { createObjectURL(blob: object): string };
  document: {
    body: { append(node: object): void };
    createElement(tag: 'a'): { href: string; download: string; click(): void; remove(): void };
  };
  [name: string]: unknown;
}

/** What main records of the downloads the page starts (see the download test). */
interface MainGlobals {
  downloads?: string[];
}

const PAGE_URL = /^app:\/\/order-desk\/index\.html(#.*)?$/;

/**
 * The Electron shell itself: the built main process (out/main/index.js) in a real Electron with
 * a throw-away profile. Runs where the electron package has its binary (`npm start` fetches it:
 * since Electron 42, `npm install` no longer does); skipped, saying why, where none was fetched
 * (our build machines cannot download it).
 */
const MAIN_JS = repoFile('out', 'main', 'index.js');

function electronBinary(): { path: string } | { path: null; reason: string } {
  // Where the binary is, read as electron-vite reads it: Electron's install script writes
  // path.txt beside the package once the binary is there. Not require('electron'), which since
  // Electron 42 starts a download when the binary is missing.
  const packageDir = dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  const pathFile = join(packageDir, 'path.txt');
  if (!existsSync(pathFile))
    return { path: null, reason: `${pathFile} does not exist (run npx install-electron)` };
  const path = join(packageDir, 'dist', readFileSync(pathFile, 'utf8'));
  return existsSync(path) ? { path } : { path: null, reason: `${path} does not exist` };
}

const binary = electronBinary();

test.describe('Electron shell', () => {
  test.skip(
    binary.path === null,
    `No Electron binary installed: ${binary.path === null ? binary.reason : ''}`,
  );

  let userData: string;
  let app: ElectronApplication | null = null;

  test.beforeEach(() => {
    if (!existsSync(MAIN_JS))
      throw new Error(`${MAIN_JS} is missing: build the app first (npx electron-vite build).`);
    userData = mkdtempSync(join(tmpdir(), 'order-desk-electron-'));
  });

  test.afterEach(async () => {
    await app?.close();
    app = null;
    rmSync(userData, { recursive: true, force: true });
  });

  test('opens one locked-down window on the Connect screen at first run', async () => {
    app = await electron.launch({
      executablePath: binary.path!,
      // Chromium refuses to run as root with its OS sandbox (CI containers); the window's own
      // settings (sandboxed renderer, context isolation) are what this test checks.
      args: process.getuid?.() === 0 ? ['--no-sandbox', MAIN_JS] : [MAIN_JS],
      env: { ...process.env, ORDER_DESK_USER_DATA: userData, ELECTRON_RENDERER_URL: '' },
    });
    const page = await app.firstWindow();

    // The profile is the throw-away one, so the first run is really a first run.
    expect(await app.evaluate(({ app: electronApp }) => electronApp.getPath('userData'))).toBe(
      userData,
    );
    // The built renderer comes from main's app:// protocol, not from file://.
    expect(page.url()).toMatch(PAGE_URL);

    // One object crosses, with exactly the two methods of the contract; no Node, no ipcRenderer.
    const exposed = await page.evaluate(() => {
      const w = globalThis as unknown as PageGlobals;
      return {
        keys: Object.keys(w.orderDesk as object).sort(),
        require: typeof w.require,
        process: typeof w.process,
        ipcRenderer: typeof w.ipcRenderer,
        electron: typeof w.electron,
      };
    });
    expect(exposed).toEqual({
      keys: ['call', 'on'],
      require: 'undefined',
      process: 'undefined',
      ipcRenderer: 'undefined',
      electron: 'undefined',
    });

    // A call goes through main's sender check and the dispatcher: no connection at first run.
    const state = await page.evaluate(() =>
      (globalThis as unknown as PageGlobals).orderDesk.call('app.state', {}),
    );
    expect(state.ok).toBe(true);
    if (state.ok) {
      expect(state.value.transport).toBe('electron');
      expect(state.value.connection).toBeNull();
    }
    const refused = await page.evaluate(() =>
      (globalThis as unknown as PageGlobals).orderDesk.call('catalog.product', { id: -1 } as never),
    );
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error.kind).toBe('invalid-arguments');

    // First run: the Connect screen, where the user picks the server (nothing was connected).
    await expect(
      page.getByRole('heading', { level: 1, name: 'Welcome to Order Desk' }),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: 'Use the local sandbox' })).toBeVisible();

    // window.open is denied (about:blank is not http(s), so nothing opens outside either) and
    // navigation away from the renderer is blocked.
    expect(
      await page.evaluate(
        () => (globalThis as unknown as PageGlobals).open('about:blank') === null,
      ),
    ).toBe(true);
    // Main sees will-navigate before the next call from the page, so after that call's answer
    // the same document (with its marker) is still there if, and only if, navigation was blocked.
    await page.evaluate(() => {
      (globalThis as unknown as PageGlobals).marker = 'still here';
      (globalThis as unknown as PageGlobals).location.href = 'https://example.invalid/';
    });
    expect(
      (
        await page.evaluate(() =>
          (globalThis as unknown as PageGlobals).orderDesk.call('app.state', {}),
        )
      ).ok,
    ).toBe(true);
    expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).marker)).toBe(
      'still here',
    );
    expect(page.url()).toMatch(PAGE_URL);
    expect(app.windows()).toHaveLength(1);
  });

  test('serves only the renderer over app://, with its policy, and lets the page save a file', async () => {
    app = await electron.launch({
      executablePath: binary.path!,
      args: process.getuid?.() === 0 ? ['--no-sandbox', MAIN_JS] : [MAIN_JS],
      env: { ...process.env, ORDER_DESK_USER_DATA: userData, ELECTRON_RENDERER_URL: '' },
    });
    const page = await app.firstWindow();
    await expect(
      page.getByRole('heading', { level: 1, name: 'Welcome to Order Desk' }),
    ).toBeVisible();

    // The page's own origin answers with the file and the Content-Security-Policy header; no
    // spelling of a path outside out/renderer is served.
    const probe = await page.evaluate(async () => {
      const w = globalThis as unknown as PageGlobals;
      const status = async (url: string) => (await w.fetch(url)).status;
      const index = await w.fetch('app://order-desk/index.html');
      return {
        index: index.status,
        csp: index.headers.get('content-security-policy'),
        missing: await status('app://order-desk/missing.js'),
        encodedSlashes: await status('app://order-desk/..%2f..%2fpackage.json'),
        backslashes: await status('app://order-desk/..%5c..%5cpackage.json'),
        otherHost: await status('app://elsewhere/index.html').catch(() => 'refused'),
      };
    });
    expect(probe).toMatchObject({
      index: 200,
      missing: 404,
      encodedSlashes: 404,
      backslashes: 404,
    });
    expect(probe.csp).toContain("script-src 'self'");
    // Another host of app:// is another origin: the page may not even ask (no CORS for app://).
    expect([404, 'refused']).toContain(probe.otherHost);

    // A CSV made by the page (saveTextFile: an <a download> of a Blob URL) is a download that
    // main sees, not a navigation the guard would block: Electron would ask where to save it.
    // Main cancels it here, so that no save dialog opens in a test.
    await app.evaluate(({ session }) => {
      const g = globalThis as MainGlobals;
      g.downloads = [];
      session.defaultSession.on('will-download', (event, item) => {
        event.preventDefault();
        g.downloads!.push(item.getFilename());
      });
    });
    await page.evaluate(() => {
      const w = globalThis as unknown as PageGlobals;
      const link = w.document.createElement('a');
      link.href = w.URL.createObjectURL(
        new w.Blob(['name,quantity\r\nZinc,2\r\n'], { type: 'text/csv;charset=utf-8' }),
      );
      link.download = 'order-desk-protocols-test.csv';
      w.document.body.append(link);
      link.click();
      link.remove();
    });
    await expect
      .poll(() => app!.evaluate(() => (globalThis as MainGlobals).downloads))
      .toEqual(['order-desk-protocols-test.csv']);
    expect(page.url()).toMatch(PAGE_URL);
  });
});
