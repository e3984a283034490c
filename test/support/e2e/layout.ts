import type { Page } from '@playwright/test';

/** The window sizes the layout is held to: the smallest supported and a common large screen. */
export const LAYOUT_SIZES = [
  { width: 1024, height: 700 },
  { width: 1920, height: 1080 },
] as const;

/** Every size screenshots are taken at when ORDER_DESK_ALL_SIZES is set (for a reviewer's look). */
export const ALL_SIZES = [
  { width: 1024, height: 700 },
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
  { width: 2560, height: 1440 },
] as const;

/** The page's globals used below (the tests' tsconfig has no DOM library). */
interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
  width: number;
}
interface El {
  tagName: string;
  id: string;
  className: string | { baseVal: string };
  scrollWidth: number;
  clientWidth: number;
  parentElement: El | null;
  getBoundingClientRect(): Box;
  getAttribute(name: string): string | null;
  closest(selector: string): El | null;
}
interface PageGlobals {
  document: { querySelector(s: string): El | null; querySelectorAll(s: string): Iterable<El> };
  getComputedStyle(el: El): { textOverflow: string; display: string; clip: string };
}

/**
 * What inside the main landmark scrolls or is cut sideways: the main region itself, and every
 * element in it whose content is wider than its box (a table's wrapper that scrolls, a row whose
 * overflow is hidden), and what spills past the main region's right edge. Left alone: text cut
 * on purpose with an ellipsis, form controls (their text scrolls inside them), visually hidden
 * (clipped) labels, what is not displayed, and a region made to scroll sideways in a window too
 * narrow for it (data-scrolls-sideways: the protocol list's chosen columns) with what it holds.
 */
export function sidewaysOverflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const g = globalThis as unknown as PageGlobals;
    const main = g.document.querySelector('main');
    if (!main) return ['no main landmark'];
    const name = (el: El) => {
      const cls = typeof el.className === 'string' ? el.className : el.className.baseVal;
      const label = el.getAttribute('aria-label');
      return `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${cls ? `.${cls.trim().split(/\s+/).join('.')}` : ''}${label ? `[aria-label="${label}"]` : ''}`;
    };
    const found: string[] = [];
    for (const el of [main, ...g.document.querySelectorAll('main *')]) {
      if (['INPUT', 'TEXTAREA', 'SELECT', 'svg', 'path'].includes(el.tagName)) continue;
      if (el.closest('[data-scrolls-sideways]')) continue;
      if (el.clientWidth <= 1) continue;
      const style = g.getComputedStyle(el);
      if (style.display === 'none' || style.display === 'inline') continue;
      if (style.textOverflow === 'ellipsis' || style.clip !== 'auto') continue;
      if (el.scrollWidth > el.clientWidth + 1)
        found.push(`${name(el)}: ${el.scrollWidth} px of content in ${el.clientWidth} px`);
    }
    // Content that spills out of the main region, each only at its outermost element (what
    // is inside a box already named above is that box's overflow).
    const right = main.getBoundingClientRect().right;
    const past = (el: El) => {
      const box = el.getBoundingClientRect();
      return box.width > 0 && box.right > right + 1;
    };
    for (const el of g.document.querySelectorAll('main *')) {
      if (!past(el) || (el.parentElement && el.parentElement !== main && past(el.parentElement)))
        continue;
      let inside = false;
      for (let up: El | null = el.parentElement; up && up !== main; up = up.parentElement)
        if (up.scrollWidth > up.clientWidth + 1) inside = true;
      if (!inside)
        found.push(
          `${name(el)}: ends ${Math.round(el.getBoundingClientRect().right - right)} px past the main region`,
        );
    }
    return found;
  });
}

/** How far each of `selector`'s elements reaches past the box of its closest `container`. */
export function pastContainer(page: Page, selector: string, container: string): Promise<number[]> {
  return page.evaluate(
    ([sel, box]) => {
      const g = globalThis as unknown as PageGlobals & {
        document: { querySelectorAll(s: string): Iterable<El & { closest(s: string): El | null }> };
      };
      return [...g.document.querySelectorAll(sel)].map((el) => {
        const inner = el.getBoundingClientRect();
        const outer = (el.closest(box) ?? el).getBoundingClientRect();
        return Math.max(
          0,
          Math.round(inner.right - outer.right),
          Math.round(outer.left - inner.left),
        );
      });
    },
    [selector, container] as const,
  );
}

/**
 * Collects the page's uncaught errors and console errors from now on: a test ends by expecting
 * the list to be empty.
 */
export function pageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    // The sandbox's product images are on a host that never resolves (.invalid), on purpose:
    // the app shows its placeholder. Chromium reports each such load; the app logs nothing.
    const from = message.location().url;
    if (
      message.text().startsWith('Failed to load resource') &&
      /^https?:\/\/[^/]+\.invalid\//.test(from)
    )
      return;
    errors.push(`console.error: ${message.text()}${from ? ` (${from})` : ''}`);
  });
  return errors;
}
