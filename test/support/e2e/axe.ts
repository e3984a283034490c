import AxeBuilder from '@axe-core/playwright';
import type { Page, TestInfo } from '@playwright/test';

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
