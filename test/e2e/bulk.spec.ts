import { HOST_DOWN, expect, test } from '@test/support/e2e/fixtures';
import { axeBlockers } from '@test/support/e2e/axe';
import {
  chooseAllForReview,
  connectPartner,
  expectBatchFinished,
  expectOneServerOrderEach,
  injectOrderFaults,
  openBatchFromList,
  route,
  runCount,
  seedProtocol,
  seedProtocols,
  startHostAgain,
  submitFromReview,
  tabTo,
} from '@test/support/e2e/batches';
import { clearFaults, protocolFor, serverOrdersBySourceId } from '@test/support/bulk';
import { saveScreen } from '@test/support/e2e/screens';

test.describe.configure({ timeout: 180_000 });

test('25 protocols with 5xx, latency and responses dropped after commit: exactly 25 orders, and the screen says 25 created', async ({
  app,
  host,
  partnerSandbox,
}, testInfo) => {
  await connectPartner(app, partnerSandbox);
  seedProtocols(host, 25, 'faulty');
  await chooseAllForReview(app, 25);
  await expect(app.getByTestId('review-left-out')).toHaveText('0');
  await saveScreen(app, testInfo, 'batch-review');

  await injectOrderFaults(partnerSandbox, {
    latencyMs: 120,
    errorRate: 0.2,
    dropResponseRate: 0.25,
    count: 8,
  });
  await submitFromReview(app, 25);
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
  // Every row says created, and links to its order in the queue.
  const rows = app.getByRole('list', { name: 'Orders of the batch' }).getByRole('listitem');
  await expect(rows.filter({ hasText: 'Created' }).first()).toBeVisible();
  await expect(rows.filter({ hasNotText: 'Created' })).toHaveCount(0);
  const href = await rows
    .first()
    .getByRole('link', { name: /^Order / })
    .getAttribute('href');
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
  pageErrors,
}, testInfo) => {
  // The app is stopped and started again: the page logs the refused connections meanwhile.
  for (const pattern of HOST_DOWN) pageErrors.allow(pattern);
  await connectPartner(app, partnerSandbox);
  seedProtocols(host, 30, 'restart');
  await chooseAllForReview(app, 30);
  // Slow creates, some answers lost after commit: orders are in flight when the app stops.
  await injectOrderFaults(partnerSandbox, { latencyMs: 400, dropResponseRate: 0.2, count: 4 });
  const batchId = await submitFromReview(app, 30);
  await expect
    .poll(async () => Number(await runCount(app, 'created').textContent()), { timeout: 30_000 })
    .toBeGreaterThan(0);
  await saveScreen(app, testInfo, 'batch-before-restart');
  expect(Number(await runCount(app, 'created').textContent())).toBeLessThan(30);

  await host.close();
  const again = await startHostAgain(dataDir, keychainService);
  try {
    await page.goto(again.host.url);
    await openBatchFromList(page, /^Batch of 30 protocols/);
    expect(await route(page)).toBe(`/batches/${batchId}`);
    await expectBatchFinished(page, 150_000);
    await expect(runCount(page, 'created')).toHaveText('30');
    await clearFaults(partnerSandbox);
    await expectOneServerOrderEach(partnerSandbox, 'restart', 30);
    await saveScreen(page, testInfo, 'batch-after-restart');
  } finally {
    await again.close();
  }
});

test('a protocol with a discontinued product is rejected with the server’s reason, fixed in the editor, retried and created', async ({
  app,
  host,
  partnerSandbox,
}, testInfo) => {
  await connectPartner(app, partnerSandbox);
  seedProtocols(host, 3, 'disc');
  // The local catalog still says active; the server has discontinued the external product since.
  const patch = await partnerSandbox.api('PATCH', '/_sandbox/products/1035', {
    status: 'DISCONTINUED',
  });
  expect(patch.status).toBe(200);
  await chooseAllForReview(app, 3);
  await submitFromReview(app, 3);
  await expectBatchFinished(app);
  await expect(runCount(app, 'rejected')).toHaveText('3');
  const rows = app.getByRole('list', { name: 'Orders of the batch' }).getByRole('listitem');
  const row = rows.filter({ hasText: 'disc-1' });
  await expect(row).toContainText('Rejected');
  // The reason in plain words, never the server's raw code or a field's name.
  await expect(row).toContainText('Whey-Free Protein Powder, Vanilla is discontinued');
  await expect(row).not.toContainText(/DISCONTINUED|Product \d+ ID/);
  await saveScreen(app, testInfo, 'batch-run-rejected');

  // Fix: the editor opens from the row; the discontinued product goes.
  await row.getByRole('link', { name: /^Fix protocol of / }).click();
  await expect(app).toHaveURL(/#\/protocols\/[0-9a-f-]{36}$/);
  await app.getByRole('button', { name: 'Remove Whey-Free Protein Powder, Vanilla' }).click();
  await app.getByRole('button', { name: 'Save changes' }).click();
  await expect(
    app.getByRole('region', { name: 'Notifications' }).getByText(/^Protocol saved/),
  ).toBeVisible();
  await app.goBack();
  await expect(app.getByRole('heading', { level: 1, name: 'Batch of 3 protocols' })).toBeVisible();

  await row.getByRole('button', { name: /^Retry order of / }).click();
  await expect(row).toContainText('Created', { timeout: 60_000 });
  await expect(runCount(app, 'created')).toHaveText('1');
  await expect(runCount(app, 'rejected')).toHaveText('2');
  const server = await serverOrdersBySourceId(partnerSandbox, 'disc-');
  expect([...server.keys()], 'patients with an order on the server').toEqual(['disc-1']);
  expect(server.get('disc-1')).toHaveLength(1);
  await saveScreen(app, testInfo, 'batch-run-retried');
});

test('review: the protocols that cannot be orders are left out with the reason and a way to fix them; an empty draft says so', async ({
  app,
  host,
  partnerSandbox,
}, testInfo) => {
  await connectPartner(app, partnerSandbox);
  await app.evaluate(() => {
    (globalThis as unknown as { location: { hash: string } }).location.hash = '#/batches/review';
  });
  await expect(app.getByText('No protocols are chosen for a batch.')).toBeVisible();
  await expect(app.getByRole('link', { name: 'Go to the protocols' })).toBeVisible();
  await saveScreen(app, testInfo, 'batch-review-empty');

  seedProtocols(host, 3, 'mixed');
  const body = protocolFor('mixed-broken');
  seedProtocol(host, {
    ...body,
    lineItems: [
      {
        productId: 99_999,
        quantity: 1,
        administration: { morning: 1, afternoon: 0, evening: 0, sleep: 0 },
      },
    ],
  });
  await chooseAllForReview(app, 4);
  await expect(app.getByTestId('review-included')).toHaveText('3');
  await expect(app.getByTestId('review-left-out')).toHaveText('1');
  const leftOut = app.getByRole('region', { name: 'Left out of the batch' });
  await expect(leftOut).toContainText('mixed-broken');
  await expect(leftOut.getByRole('list', { name: /^Why .* is left out$/ })).toContainText('99999');
  await expect(leftOut.getByRole('link', { name: /^Fix protocol of / })).toHaveAttribute(
    'href',
    /^#\/protocols\/[0-9a-f-]{36}$/,
  );
  await saveScreen(app, testInfo, 'batch-review-left-out');
  const batchId = await submitFromReview(app, 3);
  await expectBatchFinished(app);
  await expect(runCount(app, 'created')).toHaveText('3');
  expect(host.core.store.batches.items(batchId)).toHaveLength(3);
});

test('a production connection asks for the number of orders to be typed', async ({
  app,
  host,
  partnerSandbox,
}, testInfo) => {
  // A first run straight onto a production connection (the app started again to pick it up).
  await host.core.connect(
    {
      kind: 'production',
      label: 'Clinic production',
      baseUrl: partnerSandbox.baseUrl,
      authUrl: partnerSandbox.authUrl,
      clientId: partnerSandbox.clientId,
    },
    partnerSandbox.clientSecret,
  );
  await app.reload();
  await expect(app.getByRole('banner')).toContainText('Clinic production', { timeout: 20_000 });
  seedProtocols(host, 2, 'prod');
  await chooseAllForReview(app, 2);
  await app.getByRole('button', { name: 'Submit 2 orders…' }).click();
  const dialog = app.getByRole('alertdialog', { name: 'Send 2 orders to production?' });
  await expect(dialog).toBeVisible();
  const typed = dialog.getByLabel('Type 2 to confirm');
  await expect(typed).toBeFocused();
  await dialog.getByRole('button', { name: 'Send 2 orders to production' }).click();
  await expect(typed).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog).toContainText('Type 2, the number of orders, to send them');
  await saveScreen(app, testInfo, 'batch-confirm-production', { fullPage: false });
  expect(host.core.store.batches.list()).toHaveLength(0);
  await typed.fill('2');
  await dialog.getByRole('button', { name: 'Send 2 orders to production' }).click();
  await expectBatchFinished(app);
  await expect(runCount(app, 'created')).toHaveText('2');
});

test('keyboard only: choose protocols, review, confirm, watch, pause and continue, open the list', async ({
  app,
  host,
  partnerSandbox,
}, testInfo) => {
  await connectPartner(app, partnerSandbox);
  seedProtocols(host, 12, 'keys');
  await injectOrderFaults(partnerSandbox, { latencyMs: 3000 });
  await app.keyboard.press('Control+1');
  await expect(app.getByRole('heading', { level: 1, name: 'Protocols' })).toBeVisible();
  const selectAll = app.getByRole('button', { name: 'Select all 12' });
  await tabTo(app, selectAll);
  await app.keyboard.press('Enter');
  await tabTo(app, app.getByRole('button', { name: 'Review batch (12)' }));
  await app.keyboard.press('Enter');
  await expect(app.getByTestId('review-included')).toHaveText('12');
  await tabTo(app, app.getByRole('button', { name: 'Submit 12 orders…' }));
  await app.keyboard.press('Enter');
  const dialog = app.getByRole('dialog', { name: 'Send 12 orders?' });
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await app.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: 'Send 12 orders' })).toBeFocused();
  await app.keyboard.press('Enter');
  await expect(app.getByRole('heading', { level: 1, name: 'Batch of 12 protocols' })).toBeVisible();

  const pause = app.getByRole('button', { name: 'Pause' });
  await tabTo(app, pause);
  await app.keyboard.press('Enter');
  await expect(app.locator('.batch-status [role="status"]')).toHaveText('Paused');
  await saveScreen(app, testInfo, 'batch-run-paused');
  const paused = await runCount(app, 'created').textContent();
  expect(Number(paused)).toBeLessThan(12);
  const resume = app.getByRole('button', { name: 'Continue' });
  await tabTo(app, resume);
  await app.keyboard.press('Enter');
  await clearFaults(partnerSandbox);
  await expectBatchFinished(app);
  await expect(runCount(app, 'created')).toHaveText('12');

  await tabTo(app, app.getByRole('link', { name: 'All batches' }));
  await app.keyboard.press('Enter');
  await expect(app.getByRole('heading', { level: 1, name: 'Batches' })).toBeVisible();
  await tabTo(app, app.getByRole('link', { name: /^Batch of 12 protocols/ }));
  await app.keyboard.press('Enter');
  await expect(app.getByRole('heading', { level: 1, name: 'Batch of 12 protocols' })).toBeVisible();
});

for (const theme of ['light', 'dark'] as const) {
  test(`review, run view and batches list: no serious or critical axe violations, ${theme} theme`, async ({
    app,
    host,
    partnerSandbox,
  }, testInfo) => {
    await app.emulateMedia({ colorScheme: theme });
    await connectPartner(app, partnerSandbox);
    seedProtocols(host, 8, `axe-${theme}`);
    seedProtocol(host, {
      ...protocolFor(`axe-${theme}-broken`),
      lineItems: [
        {
          productId: 99_999,
          quantity: 1,
          administration: { morning: 1, afternoon: 0, evening: 0, sleep: 0 },
        },
      ],
    });
    // Orders the server refuses: the run view shows rejected rows with their actions.
    const patch = await partnerSandbox.api('PATCH', '/_sandbox/products/1035', {
      status: 'DISCONTINUED',
    });
    expect(patch.status).toBe(200);
    await chooseAllForReview(app, 9);
    await expect(app.getByTestId('review-left-out')).toHaveText('1');
    await expect(app.locator('html')).toHaveAttribute('data-theme', theme);
    await saveScreen(app, testInfo, `${theme}-batch-review`);
    expect(await axeBlockers(app, testInfo, `${theme}-batch-review`)).toEqual([]);

    await app.getByRole('button', { name: 'Submit 8 orders…' }).click();
    await expect(app.getByRole('dialog', { name: 'Send 8 orders?' })).toBeVisible();
    await saveScreen(app, testInfo, `${theme}-batch-confirm`, { fullPage: false });
    expect(await axeBlockers(app, testInfo, `${theme}-batch-confirm`, 'dialog[open]')).toEqual([]);
    await app.getByRole('button', { name: 'Send 8 orders' }).click();
    await expectBatchFinished(app);
    await saveScreen(app, testInfo, `${theme}-batch-run`);
    expect(await axeBlockers(app, testInfo, `${theme}-batch-run`)).toEqual([]);

    await app.getByRole('link', { name: 'All batches' }).click();
    await expect(app.getByRole('heading', { level: 1, name: 'Batches' })).toBeVisible();
    await expect(app.getByRole('table')).toContainText('Finished');
    await saveScreen(app, testInfo, `${theme}-batches-list`);
    expect(await axeBlockers(app, testInfo, `${theme}-batches-list`)).toEqual([]);
  });
}
