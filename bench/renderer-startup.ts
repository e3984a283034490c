/**
 * The renderer's start (bench/README.md): (a) the initial JS (entry, modulepreloads, the browser
 * bridge) raw and gzip, against < 250 KB gzip, lazy chunks apart; (b) browser-host start to the
 * first interactive screen, median of --runs fresh data directories: Connect, then the catalog.
 *
 *   npm run bench:renderer                   # builds, then runs under a real keychain
 *   npx tsx bench/renderer-startup.ts --runs 9
 */
import { chromium, type Browser, type Page } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { CHROMIUM_ARGS } from '@repo/playwright.config';
import { startBrowserHost } from '@main/browser-host';
import type { CredentialStore } from '@main/connections/keychain';
import { Redactor, silentLogger } from '@main/logging';
import {
  BUILT_BRIDGE_FILE as BRIDGE_FILE,
  BUILT_RENDERER_DIR as RENDERER_DIR,
} from '@test/support/e2e/paths';
import { benchCredentials } from './browser-host-bench';
import { goalOf } from './goals';
import { kb, measureBundle, total } from './renderer-bundle';
import { recordFigure } from './report';

const GOAL_INITIAL_KB = goalOf('renderer.initial-js').target;
const GOAL_INITIAL_GZIP = GOAL_INITIAL_KB * 1024;

const { values } = parseArgs({
  strict: false,
  options: { runs: { type: 'string', default: '5' } },
});
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs <= 0) throw new Error('--runs takes a positive integer');

// (a) bundle size ------------------------------------------------------------------------------
const bundle = measureBundle(RENDERER_DIR, BRIDGE_FILE);
const initial = total(bundle.initial);
const lazy = total(bundle.lazy);
console.log(`Renderer bundle (${path.relative(process.cwd(), RENDERER_DIR)}, gzip level 9)`);
const row = (label: string, raw: number, gzip: number) =>
  console.log(`  ${label.padEnd(48)} ${kb(raw).padStart(10)} raw ${kb(gzip).padStart(10)} gzip`);
for (const f of bundle.initial) row(`initial  ${f.file}`, f.raw, f.gzip);
row('initial JS total', initial.raw, initial.gzip);
for (const f of bundle.lazy) row(`lazy     ${f.file}`, f.raw, f.gzip);
row(`lazy JS total (${bundle.lazy.length} chunks)`, lazy.raw, lazy.gzip);
for (const f of bundle.css) row(`css      ${f.file}`, f.raw, f.gzip);
console.log(
  `  initial JS ${kb(initial.gzip)} gzip = ${(initial.gzip / GOAL_INITIAL_GZIP).toFixed(2)} of the ` +
    `${GOAL_INITIAL_KB} KB goal: ${initial.gzip < GOAL_INITIAL_GZIP ? 'PASS' : 'ABOVE GOAL'}`,
);
recordFigure({
  id: 'renderer.initial-js',
  value: initial.gzip / 1024,
  detail: `${kb(initial.raw)} raw in ${bundle.initial.length} files; lazy chunks ${kb(lazy.gzip)} gzip`,
});

// (b) time to the first interactive screen ---------------------------------------------------
/**
 * The first interactive screen: on a first run, the Connect screen's first control (enabled, and
 * it takes the focus); after auto-resume, the catalog's first product link (the list is usable).
 */
const FIRST_CONTROL =
  'input:not([disabled]):not([type=hidden]), button:not([disabled]), select:not([disabled]), textarea:not([disabled]), a[href]';
const CATALOG_ROW = 'ul[aria-label="Products"] li a[href]';

/** The page's globals this (Node-typed) file reads inside the page. */
type Win = { document: { activeElement: unknown } };

async function waitInteractive(page: Page, resume: boolean): Promise<void> {
  const target = page
    .locator('main:not([aria-busy="true"])')
    .locator(resume ? CATALOG_ROW : FIRST_CONTROL)
    .first();
  for (;;) {
    await target.focus({ timeout: 30_000 });
    if (await target.evaluate((el) => el === (globalThis as unknown as Win).document.activeElement))
      return;
  }
}

interface Timing {
  hostMs: number;
  interactiveMs: number;
}

async function measure(browser: Browser, store: CredentialStore, resume: boolean): Promise<Timing> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'order-desk-bench-'));
  const options = {
    rendererDir: RENDERER_DIR,
    bridgeFile: BRIDGE_FILE,
    dataDir,
    credentials: store,
    log: silentLogger,
    redactor: new Redactor(),
  };
  try {
    if (resume) {
      // A data directory that was connected to the local sandbox: the next start resumes it.
      const first = await startBrowserHost(options);
      await first.core.useEmbedded();
      await first.close();
    }
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const start = performance.now();
    const host = await startBrowserHost(options);
    const hostReady = performance.now();
    try {
      await page.goto(host.url);
      if (resume) {
        // The app now opens on the protocols; the catalog's rows (the resumed connection's
        // mirror) are one navigation away, taken as soon as the app's shell is there.
        await page.getByRole('navigation', { name: 'Main' }).waitFor({ timeout: 30_000 });
        await page.evaluate(() => {
          (globalThis as unknown as { location: { hash: string } }).location.hash = '#/catalog';
        });
      }
      await waitInteractive(page, resume);
      return { hostMs: hostReady - start, interactiveMs: performance.now() - start };
    } finally {
      await context.close();
      await host.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

const { store, note } = await benchCredentials();
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
try {
  console.log(
    `\nBrowser host start -> first interactive screen, ${runs} runs each, fresh data dir per run`,
  );
  console.log(`  (Chromium launched once beforehand, a new browser context per run; ${note})`);
  console.log(`  machine: ${os.cpus().length} CPUs, Node ${process.version}`);
  await measure(browser, store, false); // warm-up: module loading, Chromium caches
  for (const [label, resume, id] of [
    ['first run -> Connect screen', false, 'renderer.first-run'],
    ['auto-resume -> catalog rows', true, 'renderer.resume'],
  ] as const) {
    const timings: Timing[] = [];
    for (let i = 0; i < runs; i++) timings.push(await measure(browser, store, resume));
    const host = timings.map((t) => t.hostMs);
    const ready = timings.map((t) => t.interactiveMs);
    console.log(
      `  ${label.padEnd(30)} median ${median(ready).toFixed(0).padStart(5)} ms ` +
        `(host ready ${median(host).toFixed(0)} ms; min ${Math.min(...ready).toFixed(0)}, ` +
        `max ${Math.max(...ready).toFixed(0)} ms)`,
    );
    recordFigure({
      id,
      value: median(ready),
      detail:
        `${runs} runs (min ${Math.min(...ready).toFixed(0)}, max ${Math.max(...ready).toFixed(0)} ms); ` +
        `host ready ${median(host).toFixed(0)} ms; ${note}`,
    });
  }
} finally {
  await browser.close();
}
