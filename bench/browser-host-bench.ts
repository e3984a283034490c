/**
 * What the benches in Chromium through the browser host share: the secrets store they run with,
 * the baseline round trip of a keystroke's own call from the page, and the page's CPU time.
 */
import { chromium, type Browser, type CDPSession, type Page } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CHROMIUM_ARGS } from '@repo/playwright.config';
import { startBrowserHost, type BrowserHost, type BrowserHostOptions } from '@main/browser-host';
import { Redactor, silentLogger } from '@main/logging';
import {
  BUILT_BRIDGE_FILE as BRIDGE_FILE,
  BUILT_RENDERER_DIR as RENDERER_DIR,
} from '@test/support/e2e/paths';
import {
  KeytarCredentialStore,
  MemoryCredentialStore,
  type CredentialStore,
} from '@main/connections/keychain';

/** The system keychain when one answers (under `scripts/with-keyring.sh`), else secrets in memory. */
export async function benchCredentials(): Promise<{ store: CredentialStore; note: string }> {
  const store = new KeytarCredentialStore(`Order Desk bench ${process.pid}`);
  try {
    await store.get('probe');
    return { store, note: 'system keychain' };
  } catch {
    return {
      store: new MemoryCredentialStore(),
      note: 'in-memory secrets: no keychain here (run under scripts/with-keyring.sh for the real one)',
    };
  }
}

const metricSessions = new WeakMap<Page, CDPSession>();

/**
 * CPU time the page's main thread has spent in tasks so far, in ms: Chrome's TaskDuration metric
 * measured in thread ticks (CPU time, not wall time), so other processes on the cores do not count.
 */
export async function threadTime(page: Page): Promise<number> {
  let cdp = metricSessions.get(page);
  if (!cdp) {
    cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
    metricSessions.set(page, cdp);
  }
  const { metrics } = await cdp.send('Performance.getMetrics');
  return (metrics.find((m) => m.name === 'TaskDuration')?.value ?? NaN) * 1000;
}

/**
 * `n` calls of `channel` with `args` from the page, one at a time with `pauseMs` between them:
 * each call's time page to host and back (ms, ascending). With arguments the store answers at
 * once, what the transport alone costs a keystroke.
 */
export async function roundTrips(
  page: Page,
  channel: string,
  args: unknown,
  n: number,
  pauseMs: number,
): Promise<number[]> {
  const ms = await page.evaluate(
    async ({ channel, args, n, pause }) => {
      const w = globalThis as unknown as {
        orderDesk: { call(channel: string, args: unknown): Promise<unknown> };
        performance: { now(): number };
        setTimeout(cb: () => void, ms: number): number;
      };
      const out: number[] = [];
      for (let i = 0; i < n; i++) {
        const t = w.performance.now();
        await w.orderDesk.call(channel, args);
        out.push(w.performance.now() - t);
        await new Promise<void>((resolve) => w.setTimeout(resolve, pause));
      }
      return out;
    },
    { channel, args, n, pause: pauseMs },
  );
  return ms.sort((a, b) => a - b);
}

/** A browser host on a fresh data folder, with the built renderer, and Debian's Chromium. */
export interface BenchHost {
  host: BrowserHost;
  browser: Browser;
  /** Which secrets store it runs with, for the figures' details. */
  note: string;
  /** Closes the browser and the host, and removes the data folder. */
  close(): Promise<void>;
}

/**
 * The options of a bench's browser host, with the built renderer, on a fresh data folder named
 * after `name` (the caller removes it): for a bench that starts the host more than once.
 */
export function benchHostOptions(
  name: string,
  credentials: CredentialStore,
): BrowserHostOptions & { dataDir: string } {
  return {
    rendererDir: RENDERER_DIR,
    bridgeFile: BRIDGE_FILE,
    dataDir: mkdtempSync(path.join(os.tmpdir(), `order-desk-bench-${name}-`)),
    credentials,
    log: silentLogger,
    redactor: new Redactor(),
  };
}

/** Starts a bench's browser host (its data folder named after `name`) and Chromium. */
export async function startBenchHost(name: string): Promise<BenchHost> {
  const { store, note } = await benchCredentials();
  const options = benchHostOptions(name, store);
  const { dataDir } = options;
  const host = await startBrowserHost(options);
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  return {
    host,
    browser,
    note,
    async close() {
      await browser.close();
      await host.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
