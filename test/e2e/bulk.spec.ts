import type { Page } from '@playwright/test';
import { expect, test } from '../support/e2e/fixtures';
import { axeBlockers } from '../support/e2e/axe';
import {
  connectPartner,
  expectBatchFinished,
  expectOneServerOrderEach,
  injectOrderFaults,
  openBatchFromList,
  runCount,
  seedProtocols,
  startHostAgain,
} from '../support/e2e/batches';
import { clearFaults } from '../support/bulk';
import { saveScreen } from '../support/e2e/screens';
import type { BrowserHost } from '../support/e2e/fixtures';

/** Sends the protocols as one batch (main's bulk submitter) and opens its run view. */
async function submitAndOpen(app: Page, host: BrowserHost, ids: string[]): Promise<string> {
  const batchId = host.core.session!.bulk.submit(ids);
  await app.evaluate((id) => {
    (globalThis as unknown as { location: { hash: string } }).location.hash = `#/batches/${id}`;
  }, batchId);
  await expect(
    app.getByRole('heading', { level: 1, name: /^Batch of \d+ protocols?$/ }),
  ).toBeVisible();
  return batchId;
}

test.describe.configure({ timeout: 180_000 });

test('25 protocols with 5xx, latency and responses dropped after commit: exactly 25 orders, and the screen says 25 created', async ({
  app,
  host,
  partnerSandbox,
}, testInfo) => {
  await connectPartner(app, partnerSandbox);
  const ids = seedProtocols(host, 25, 'faulty');
  await injectOrderFaults(partnerSandbox, {
    latencyMs: 120,
    errorRate: 0.2,
    dropResponseRate: 0.25,
    count: 8,
  });
  await submitAndOpen(app, host, ids);
  await expect(runCount(app, 'total')).toHaveText('25');
  await saveScreen(app, testInfo, 'batch-run-running');

  await expectBatchFinished(app, 150_000);
  await expect(runCount(app, 'created')).toHaveText('25');
  await expect(runCount(app, 'rejected')).toHaveText('0');
  await expect(runCount(app, 'in-doubt')).toHaveText('0');
  const faults = await partnerSandbox.api('GET', '/_sandbox/faults');
  expect(faults.body.injected, 'faults the sandbox injected').toBeGreaterThan(0);
  await clearFaults(partnerSandbox);
  const orderIds = await expectOneServerOrderEach(partnerSandbox, 'faulty', 25);
  // Each created item links to its order in the queue.
  const list = app.getByRole('list', { name: 'Orders of the batch' });
  const first = list.getByRole('listitem').first();
  await expect(first).toContainText('Created');
  const link = first.getByRole('link', { name: /^Order / });
  const href = await link.getAttribute('href');
  expect(orderIds.map((id) => `#/orders/${id}`)).toContain(href);
  await saveScreen(app, testInfo, 'batch-run-done');
});

test('the batch carries on across a restart of the app: one order per protocol', async ({
  app,
  host,
  page,
  dataDir,
  keychainService,
  partnerSandbox,
}, testInfo) => {
  await connectPartner(app, partnerSandbox);
  const ids = seedProtocols(host, 30, 'restart');
  // Slow creates, some answers lost after commit: orders are in flight when the app stops.
  await injectOrderFaults(partnerSandbox, { latencyMs: 400, dropResponseRate: 0.2, count: 4 });
  const batchId = await submitAndOpen(app, host, ids);
  await expect
    .poll(async () => Number(await runCount(app, 'created').textContent()), { timeout: 30_000 })
    .toBeGreaterThan(0);
  await saveScreen(app, testInfo, 'batch-before-restart');
  const before = Number(await runCount(app, 'created').textContent());
  expect(before).toBeLessThan(30);

  await host.close();
  const again = await startHostAgain(dataDir, keychainService);
  try {
    await page.goto(again.host.url);
    await openBatchFromList(page, /^Batch of 30 protocols/);
    await expect(page).toHaveURL(new RegExp(`#/batches/${batchId}$`));
    await expectBatchFinished(page, 150_000);
    await expect(runCount(page, 'created')).toHaveText('30');
    await clearFaults(partnerSandbox);
    await expectOneServerOrderEach(partnerSandbox, 'restart', 30);
    await saveScreen(page, testInfo, 'batch-after-restart');
  } finally {
    await again.close();
  }
});

for (const theme of ['light', 'dark'] as const) {
  test(`run view and batches list: no serious or critical axe violations, ${theme} theme`, async ({
    app,
    host,
    partnerSandbox,
  }, testInfo) => {
    await app.emulateMedia({ colorScheme: theme });
    await connectPartner(app, partnerSandbox);
    // Patients 2 and 5 order a product the server has since discontinued: rejected.
    const ids = seedProtocols(host, 8, `axe-${theme}`);
    await submitAndOpen(app, host, ids);
    await expectBatchFinished(app);
    await expect(app.locator('html')).toHaveAttribute('data-theme', theme);
    await saveScreen(app, testInfo, `${theme}-batch-run`);
    expect(await axeBlockers(app, testInfo, `${theme}-batch-run`)).toEqual([]);

    await app.getByRole('link', { name: 'All batches' }).click();
    await expect(app.getByRole('heading', { level: 1, name: 'Batches' })).toBeVisible();
    await expect(app.getByRole('table')).toContainText('Finished');
    await saveScreen(app, testInfo, `${theme}-batches-list`);
    expect(await axeBlockers(app, testInfo, `${theme}-batches-list`)).toEqual([]);
  });
}
