import type { Page, TestInfo } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { SCREENS_DIR } from './paths';

/**
 * Saves a full-page screenshot of the current screen as a test artifact (attached to the test)
 * and as test-results/screens/<name>.png, the folder a reviewer opens to see every screen.
 * `fullPage: false` for a modal dialog: its backdrop covers the window, not the whole page.
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
  const body = await page.screenshot({ fullPage, path, animations: 'disabled' });
  await testInfo.attach(`screen-${name}`, { body, contentType: 'image/png' });
  return path;
}
