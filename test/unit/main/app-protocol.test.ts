import fc from 'fast-check';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  APP_ENTRY_URL,
  APP_SCHEME_PRIVILEGES,
  createAppProtocolHandler,
  resolveAppUrl,
} from '@main/app-protocol';
import { CONTENT_SECURITY_POLICY } from '@main/window-policy';

const ROOT = join(sep, 'opt', 'Order Desk', 'resources', 'app.asar', 'out', 'renderer');

describe('resolveAppUrl', () => {
  it('maps our pages and assets to files under the renderer root, with their type', () => {
    expect(resolveAppUrl(APP_ENTRY_URL, ROOT)).toEqual({
      ok: true,
      filePath: join(ROOT, 'index.html'),
      contentType: 'text/html; charset=utf-8',
    });
    expect(resolveAppUrl('app://order-desk/assets/index-CdnDVdYm.js', ROOT)).toEqual({
      ok: true,
      filePath: join(ROOT, 'assets', 'index-CdnDVdYm.js'),
      contentType: 'text/javascript; charset=utf-8',
    });
    expect(resolveAppUrl('app://order-desk/assets/index.css', ROOT)).toMatchObject({
      ok: true,
      contentType: 'text/css; charset=utf-8',
    });
    expect(resolveAppUrl('app://order-desk/assets/font.woff2', ROOT)).toMatchObject({
      ok: true,
      contentType: 'font/woff2',
    });
    expect(resolveAppUrl('app://order-desk/icons/logo.SVG', ROOT)).toMatchObject({
      ok: true,
      contentType: 'image/svg+xml',
    });
  });

  it('ignores the #route and the query, and decodes an escaped name once', () => {
    expect(resolveAppUrl(`${APP_ENTRY_URL}#/orders?status=open`, ROOT)).toMatchObject({
      ok: true,
      filePath: join(ROOT, 'index.html'),
    });
    expect(resolveAppUrl('app://order-desk/assets/a.js?v=2', ROOT)).toMatchObject({
      ok: true,
      filePath: join(ROOT, 'assets', 'a.js'),
    });
    expect(resolveAppUrl('app://order-desk/assets/my%20file.js', ROOT)).toMatchObject({
      ok: true,
      filePath: join(ROOT, 'assets', 'my file.js'),
    });
    // %252e%252e decodes once to the name "%2e%2e", a (missing) file, never a parent directory.
    expect(resolveAppUrl('app://order-desk/%252e%252e/x.js', ROOT)).toMatchObject({
      ok: true,
      filePath: join(ROOT, '%2e%2e', 'x.js'),
    });
  });

  it('never names a file outside the root, however the path is spelled', () => {
    for (const url of [
      'app://order-desk/../../../etc/passwd',
      'app://order-desk/assets/../../secret.js',
      'app://order-desk/%2e%2e/%2e%2e/secret.js',
      'app://order-desk/.%2e/secret.js',
    ]) {
      const resolved = resolveAppUrl(url, ROOT);
      // The URL parser already folds dot segments: what is left is under the root, or refused.
      if (resolved.ok) expect(resolved.filePath.startsWith(ROOT + sep), url).toBe(true);
    }
    for (const url of [
      'app://order-desk/..%2f..%2fsecret.js',
      'app://order-desk/..%2F..%2Fsecret.js',
      'app://order-desk/assets%2fa.js',
      'app://order-desk/..%5c..%5csecret.js',
      'app://order-desk/..%5C..%5Csecret.js',
      'app://order-desk/..\\..\\secret.js',
      'app://order-desk/assets\\a.js',
      'app://order-desk/%00.js',
      'app://order-desk/a.js%00.html',
      'app://order-desk/C:/Windows/win.ini',
      'app://order-desk/c%3A%5Cwindows%5Cwin.ini',
      'app://order-desk/index.html:stream.js',
      'app://order-desk//etc/passwd.js',
      'app://order-desk/assets//a.js',
      'app://order-desk/.env.js',
      'app://order-desk/assets/.hidden.js',
      'app://order-desk/%E0%A4%A.js',
    ])
      expect(resolveAppUrl(url, ROOT), url).toMatchObject({ ok: false });
  });

  it('never names a file outside the root for any path made of hostile pieces', () => {
    const piece = fc.constantFrom(
      '..',
      '.',
      '',
      '%2e%2e',
      '.%2e',
      '%2E.',
      '..%2f',
      '%2F',
      '%5c',
      '%5C',
      '\\',
      '%00',
      '%252e%252e',
      'C:',
      'c%3A',
      '~',
      'assets',
      'index.html',
      'a.js',
      'étude.css',
      '%C3%A9.css',
    );
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 8 }),
        fc.constantFrom('/', '//', '/./'),
        (parts, lead) => {
          const url = `app://order-desk${lead}${parts.join('/')}`;
          const resolved = resolveAppUrl(url, ROOT);
          if (resolved.ok) {
            expect(resolved.filePath.startsWith(ROOT + sep), url).toBe(true);
            expect(resolved.filePath.split(sep), url).not.toContain('..');
          }
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('refuses another host, port, credentials or scheme', () => {
    for (const url of [
      'app://evil.example/index.html',
      'app://order-desk.evil.example/index.html',
      'app://order-desk:8080/index.html',
      'app://user:pw@order-desk/index.html',
      'app:///index.html',
      'app:index.html',
      'file:///opt/Order%20Desk/resources/app.asar/out/renderer/index.html',
      'https://order-desk/index.html',
      'not a url',
    ])
      expect(resolveAppUrl(url, ROOT), url).toMatchObject({ ok: false });
  });

  it('serves only the file types a renderer build is made of', () => {
    for (const url of [
      'app://order-desk/',
      'app://order-desk/assets',
      'app://order-desk/assets/',
      'app://order-desk/package',
      'app://order-desk/main.node',
      'app://order-desk/data.sqlite',
      'app://order-desk/run.sh',
      'app://order-desk/index.html.exe',
    ])
      expect(resolveAppUrl(url, ROOT), url).toMatchObject({ ok: false });
  });
});

describe('createAppProtocolHandler', () => {
  let dir: string;
  let root: string;
  const refusals: string[] = [];
  let handler: (request: Request) => Promise<Response>;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'order-desk-app-protocol-'));
    root = join(dir, 'out', 'renderer');
    mkdirSync(join(root, 'assets'), { recursive: true });
    writeFileSync(join(root, 'index.html'), '<!doctype html><title>Order Desk</title>');
    writeFileSync(join(root, 'assets', 'index.js'), 'export const answer = 42;\n');
    mkdirSync(join(root, 'assets', 'folder.js'));
    // Files next to the renderer that no app:// URL may reach.
    writeFileSync(join(dir, 'out', 'secret.js'), 'secret');
    writeFileSync(join(dir, 'secret.html'), 'secret');
    handler = createAppProtocolHandler({
      rootDir: root,
      readFile: (path) => readFile(path),
      contentSecurityPolicy: CONTENT_SECURITY_POLICY,
      onRefused: (url, reason) => refusals.push(`${reason} ${url}`),
    });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const get = (url: string, method = 'GET') => handler(new Request(url, { method }));

  it('serves the page with its type, our CSP and nosniff', async () => {
    const res = await get(`${APP_ENTRY_URL}#/settings`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.text()).toBe('<!doctype html><title>Order Desk</title>');
  });

  it('serves a module script as JavaScript (module scripts need the type)', async () => {
    const res = await get('app://order-desk/assets/index.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await res.text()).toBe('export const answer = 42;\n');
  });

  it('answers HEAD with the headers and no body', async () => {
    const res = await get('app://order-desk/assets/index.js', 'HEAD');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe(String('export const answer = 42;\n'.length));
    expect(await res.text()).toBe('');
  });

  it('answers 404, reading nothing outside the root, for every other URL', async () => {
    refusals.length = 0;
    for (const url of [
      'app://order-desk/missing.js',
      'app://order-desk/assets/folder.js',
      'app://order-desk/../secret.js',
      'app://order-desk/..%2fsecret.js',
      'app://order-desk/..%2f..%2fsecret.html',
      'app://order-desk/..%5c..%5csecret.html',
      'app://order-desk/assets/..%2f..%2fsecret.js',
      'app://other-host/index.html',
    ]) {
      const res = await get(url);
      expect(res.status, url).toBe(404);
      const body = await res.text();
      expect(body, url).not.toContain('secret');
      expect(res.headers.get('content-security-policy'), url).toBe(CONTENT_SECURITY_POLICY);
    }
    expect(refusals).toHaveLength(8);
  });

  it('refuses methods other than GET and HEAD', async () => {
    const res = await get(APP_ENTRY_URL, 'POST');
    expect(res.status).toBe(405);
  });

  it('answers 500, not a crash, when a file cannot be read', async () => {
    const failing = createAppProtocolHandler({
      rootDir: root,
      readFile: () => Promise.reject(Object.assign(new Error('EACCES'), { code: 'EACCES' })),
      contentSecurityPolicy: CONTENT_SECURITY_POLICY,
    });
    expect((await failing(new Request(APP_ENTRY_URL))).status).toBe(500);
  });
});

describe('APP_SCHEME_PRIVILEGES', () => {
  it('makes app:// a standard, secure origin without bypassing CSP or opening it to others', () => {
    expect(APP_SCHEME_PRIVILEGES).toEqual({
      scheme: 'app',
      privileges: { standard: true, secure: true, supportFetchAPI: true },
    });
  });
});
