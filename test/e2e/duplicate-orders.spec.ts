import { expect, test } from '@test/support/e2e/fixtures';
import { expectNoAxeBlockersInBothThemes } from '@test/support/e2e/axe';
import {
  chooseAllForReview,
  connectPartner,
  expectBatchFinished,
  injectOrderFaults,
  runCount,
  seedProtocols,
} from '@test/support/e2e/batches';
import {
  allServerOrders,
  clearFaults,
  protocolFor,
  serverOrdersBySourceId,
} from '@test/support/bulk';
import type { TestSandbox } from '@test/support/sandbox';
import { saveScreen } from '@test/support/e2e/screens';

test.describe.configure({ timeout: 120_000 });

/** Another desk of the clinic orders this patient's protocol, straight on the server. */
async function orderedByAnotherDesk(sandbox: TestSandbox, sourceId: string): Promise<string> {
  const res = await sandbox.api<{ id: string }>('POST', '/v1/orders', protocolFor(sourceId));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

test('the review leaves out patients another desk just ordered, unless included one by one', async ({
  app,
  host,
  partnerSandbox,
}, testInfo) => {
  await connectPartner(app, partnerSandbox);
  seedProtocols(host, 4, 'dup');
  const first = await orderedByAnotherDesk(partnerSandbox, 'dup-0');
  await orderedByAnotherDesk(partnerSandbox, 'dup-1');

  await chooseAllForReview(app, 4);
  await expect(app.getByTestId('review-included')).toHaveText('2', { timeout: 20_000 });
  await expect(app.getByTestId('review-held')).toHaveText('2');
  const held = app.getByRole('region', { name: 'Possible duplicates' });
  await expect(held.getByRole('link', { name: `Order ${first}` })).toBeVisible();
  await saveScreen(app, testInfo, 'review-possible-duplicates');
  await expectNoAxeBlockersInBothThemes(app, testInfo, 'review-possible-duplicates');

  // The second patient is meant to get a second order: included on purpose.
  const dup1 = held.getByRole('listitem').filter({ hasText: 'dup-1' }).first();
  await dup1.getByRole('checkbox', { name: /Order again anyway/ }).check();
  await expect(app.getByTestId('review-included')).toHaveText('3');
  await expect(app.getByTestId('review-held')).toHaveText('1');
  await app.getByRole('button', { name: 'Submit 3 orders…' }).click();
  const dialog = app.getByRole('dialog', { name: 'Send 3 orders?' });
  await expect(dialog).toContainText('1 protocol left out of the batch will not be sent.');
  await dialog.getByRole('button', { name: 'Send 3 orders' }).click();
  await expectBatchFinished(app);
  await expect(runCount(app, 'created')).toHaveText('3');

  const orders = await serverOrdersBySourceId(partnerSandbox, 'dup-');
  expect(Object.fromEntries([...orders].map(([k, v]) => [k, v.length]))).toEqual({
    'dup-0': 1,
    'dup-1': 2,
    'dup-2': 1,
    'dup-3': 1,
  });
});

test('an order another desk made after the review is held back; "Send anyway" sends it', async ({
  app,
  host,
  partnerSandbox,
}, testInfo) => {
  await connectPartner(app, partnerSandbox);
  seedProtocols(host, 2, 'late');
  await chooseAllForReview(app, 2);
  await expect(app.getByTestId('review-included')).toHaveText('2', { timeout: 20_000 });
  // Between the review and the send, another desk orders the first patient.
  const theirs = await orderedByAnotherDesk(partnerSandbox, 'late-0');
  await app.getByRole('button', { name: 'Submit 2 orders…' }).click();
  await app
    .getByRole('dialog', { name: 'Send 2 orders?' })
    .getByRole('button', { name: 'Send 2 orders' })
    .click();
  await expectBatchFinished(app);
  await expect(runCount(app, 'created')).toHaveText('1');
  await expect(runCount(app, 'held')).toHaveText('1');
  await expect(app.getByTestId('batch-held')).toBeVisible();
  const rows = app.getByRole('list', { name: 'Orders of the batch' }).getByRole('listitem');
  const heldRow = rows.filter({ hasText: 'Held back' });
  await expect(heldRow.getByRole('link', { name: `Order ${theirs}` })).toBeVisible();
  await saveScreen(app, testInfo, 'batch-held-back');
  await expectNoAxeBlockersInBothThemes(app, testInfo, 'batch-held-back');
  expect((await serverOrdersBySourceId(partnerSandbox, 'late-')).get('late-0')).toEqual([theirs]);

  await heldRow.getByRole('button', { name: /Send the order of .* anyway/ }).click();
  await expect(runCount(app, 'created')).toHaveText('2', { timeout: 30_000 });
  await expect(runCount(app, 'rejected')).toHaveText('0');
  expect((await serverOrdersBySourceId(partnerSandbox, 'late-')).get('late-0')).toHaveLength(2);
});

test('two desks ordering the same patients at the same moment: this desk cancels its later repeats and says so', async ({
  app,
  host,
  partnerSandbox,
}, testInfo) => {
  await connectPartner(app, partnerSandbox);
  seedProtocols(host, 3, 'moment');
  await chooseAllForReview(app, 3);
  await expect(app.getByTestId('review-included')).toHaveText('3', { timeout: 20_000 });

  // This desk's creates take 6 s on the server; another desk's, sent meanwhile, land first.
  await injectOrderFaults(partnerSandbox, { latencyMs: 6_000 });
  await app.getByRole('button', { name: 'Submit 3 orders…' }).click();
  await app
    .getByRole('dialog', { name: 'Send 3 orders?' })
    .getByRole('button', { name: 'Send 3 orders' })
    .click();
  // All three creates are on their way (each checked the server first, and found nothing).
  await expect
    .poll(() => host.core.store.jobs.counts({ kind: 'order' }).sending, { timeout: 20_000 })
    .toBe(3);
  await app.waitForTimeout(1_000); // their requests reach the server, which holds each 6 s
  await clearFaults(partnerSandbox);
  const theirs = await Promise.all(
    [0, 1, 2].map((i) => orderedByAnotherDesk(partnerSandbox, `moment-${i}`)),
  );

  await expectBatchFinished(app);
  const cancelled = app.getByRole('group', { name: /^Repeats cancelled for Ada Patient moment-/ });
  await expect(cancelled).toHaveCount(3, { timeout: 30_000 });
  await expect(cancelled.getByText(/Cancelled by Order Desk: another desk ordered/)).toHaveCount(3);
  await expect(app.getByRole('group', { name: /^Possible duplicates for/ })).toHaveCount(0);
  // Settled by the app: nothing needs a look, and no order of the batch stands.
  await expect(app.getByRole('radio', { name: 'Needs a look (0)' })).toBeVisible();
  await expect(app.getByRole('radio', { name: 'Created (0)' })).toBeVisible();
  await expect(app.getByText('Repeat orders cancelled').first()).toBeVisible();
  await saveScreen(app, testInfo, 'batch-repeats-cancelled');

  // The server keeps the other desk's three; this desk's three are cancelled.
  const orders = await allServerOrders(partnerSandbox);
  const mine = orders.filter(
    (o) => String(o.customer.sourceId).startsWith('moment-') && !theirs.includes(o.id),
  );
  expect(mine.map((o) => o.status)).toEqual(['CANCELLED', 'CANCELLED', 'CANCELLED']);
  expect(orders.filter((o) => theirs.includes(o.id)).every((o) => o.status !== 'CANCELLED')).toBe(
    true,
  );

  // The queue says which of its rows were repeats this desk cancelled.
  await app.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Orders' }).click();
  await expect(app.getByRole('heading', { level: 1, name: 'Orders' })).toBeVisible();
  await expect(app.getByText('Repeat, cancelled')).toHaveCount(3);
});
