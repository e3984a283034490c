import { readFileSync } from 'node:fs';
import type { Download, Page } from '@playwright/test';

/** The file the app hands the user when `click` runs (a download in the browser host). */
export async function downloaded(page: Page, click: () => Promise<void>): Promise<Download> {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  return download;
}

/** A downloaded file's text. */
export const textOf = async (download: Download): Promise<string> =>
  readFileSync((await download.path())!, 'utf8');
