import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, type TestInfo } from '@playwright/test';
import { saveScreen } from './screens';

const BLOCKING = new Set(['serious', 'critical']);

export interface AxeFinding {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

/**
 * Runs axe (WCAG 2.0 A/AA and 2.1 AA rules) on the page, or on `include` only (a dialog), prints
 * every violation found, attaches the full report to the test, and answers the serious and
 * critical ones: the caller asserts that there are none.
 */
export async function axeBlockers(
  page: Page,
  testInfo: TestInfo,
  screen: string,
  include?: string,
): Promise<AxeFinding[]> {
  let builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21aa']);
  if (include) builder = builder.include(include);
  const results = await builder.analyze();
  await testInfo.attach(`axe-${screen}.json`, {
    body: JSON.stringify(results.violations, null, 2),
    contentType: 'application/json',
  });
  const findings: AxeFinding[] = results.violations.map((v) => ({
    id: v.id,
    impact: v.impact ?? 'unknown',
    help: v.help,
    targets: v.nodes.map((n) => n.target.join(' ')),
  }));
  for (const f of findings)
    process.stdout.write(
      `axe [${screen}] ${f.impact}: ${f.id} (${f.help}) on ${f.targets.slice(0, 5).join(', ')}${f.targets.length > 5 ? ', …' : ''}\n`,
    );
  return findings.filter((f) => BLOCKING.has(f.impact));
}

/**
 * The page as it is, in the light and then the dark theme: axe on each (on `include` only, when
 * given), then back to light. No serious or critical finding in either theme. `screenshot`: a
 * picture of each theme, the whole screen (`true`, named `${name}-${theme}`) or the caller's own.
 */
export async function expectNoAxeBlockersInBothThemes(
  page: Page,
  testInfo: TestInfo,
  name: string,
  options: {
    include?: string;
    screenshot?: boolean | ((theme: 'light' | 'dark') => Promise<unknown>);
  } = {},
): Promise<void> {
  const blockers: Record<string, string[]> = {};
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    if (options.screenshot === true) await saveScreen(page, testInfo, `${name}-${theme}`);
    else if (options.screenshot) await options.screenshot(theme);
    const found = await axeBlockers(page, testInfo, `${name}-${theme}`, options.include);
    blockers[theme] = found.map((f) => `${f.impact} ${f.id}: ${f.help} (${f.targets.join(', ')})`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  expect(blockers, `serious or critical axe violations on ${name}`).toEqual({
    light: [],
    dark: [],
  });
}
