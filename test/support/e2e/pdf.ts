import type { Page } from '@playwright/test';
import { extractText, getDocumentProxy } from 'unpdf';

/**
 * The page printed to PDF as Chromium prints it (Playwright's page.pdf: print media, the page
 * size the print CSS asks for; what Electron's printToPDF does), and what that PDF says: its
 * page count and its text, read back with unpdf (PDF.js).
 */
export async function printedPdf(page: Page): Promise<{ pages: number; text: string }> {
  const bytes = await page.pdf({ preferCSSPageSize: true });
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  const { totalPages, text } = await extractText(pdf, { mergePages: true });
  return { pages: totalPages, text: text.replace(/\s+/g, ' ') };
}

/**
 * The whole numbers printed between `from` and the next of `until` (or the end): a grid row's
 * doses as read on paper, whatever marks the empty cells.
 */
export function numbersBetween(text: string, from: string, until: readonly string[]): number[] {
  const start = text.indexOf(from);
  if (start < 0) throw new Error(`"${from}" is not in the PDF's text`);
  const rest = text.slice(start + from.length);
  const ends = until.map((u) => rest.indexOf(u)).filter((i) => i >= 0);
  const part = ends.length ? rest.slice(0, Math.min(...ends)) : rest;
  return [...part.matchAll(/\b\d+\b/g)].map((m) => Number(m[0]));
}
