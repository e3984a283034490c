import type { Page, TestInfo } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { SCREENS_DIR } from './paths';

/** The tallest window a screenshot grows to (a long form is about 2,000 px). */
const MAX_HEIGHT = 3200;

/** The page's globals used below (the tests' tsconfig has no DOM library). */
interface PageGlobals {
  document: {
    querySelectorAll(selector: string): Iterable<{ scrollHeight: number; clientHeight: number }>;
  };
  requestAnimationFrame(callback: () => void): number;
}

/**
 * How much taller the window must be for the screen to show everything: the app's window never
 * scrolls as a whole (the sidebar and header stay put), its main landmark and the product
 * details pane scroll inside it, so Playwright's `fullPage` alone would only capture the window.
 */
function overflowOfScrollingPanes(page: Page): Promise<number> {
  return page.evaluate(() => {
    const { document } = globalThis as unknown as PageGlobals;
    return Math.max(
      0,
      ...[...document.querySelectorAll('main, .detail')].map(
        (el) => el.scrollHeight - el.clientHeight,
      ),
    );
  });
}

/** Waits for two frames, so that a resize has been laid out and painted. */
const settle = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        // Called on the global itself: a detached requestAnimationFrame is an illegal invocation.
        const g = globalThis as unknown as PageGlobals;
        g.requestAnimationFrame(() => g.requestAnimationFrame(() => resolve()));
      }),
  );

/**
 * Saves a screenshot of the current screen as a test artifact (attached to the test) and as
 * test-results/screens/<name>.png, the folder a reviewer opens to see every screen. With
 * `fullPage` (the default) the window is made tall enough, for the shot only, that every
 * scrolling pane shows its whole content; `fullPage: false` keeps the window as it is (a modal
 * dialog over the screen as the user sees it).
 */
export async function saveScreen(
  page: Page,
  testInfo: TestInfo,
  name: string,
  { fullPage = true } = {},
): Promise<string> {
  if (!/^[a-z0-9][a-z0-9-]*$/.test(name)) throw new Error(`screen name "${name}": use a-z, 0-9, -`);
  mkdirSync(SCREENS_DIR, { recursive: true });
  const path = join(SCREENS_DIR, `${name}.png`);
  const viewport = page.viewportSize();
  const extra = fullPage && viewport ? await overflowOfScrollingPanes(page) : 0;
  if (viewport && extra > 0) {
    await page.setViewportSize({
      width: viewport.width,
      height: Math.min(MAX_HEIGHT, viewport.height + extra),
    });
    await settle(page);
  }
  try {
    const body = await page.screenshot({ fullPage, path, animations: 'disabled' });
    await testInfo.attach(`screen-${name}`, { body, contentType: 'image/png' });
  } finally {
    if (viewport && extra > 0) {
      await page.setViewportSize(viewport);
      await settle(page);
    }
  }
  return path;
}
