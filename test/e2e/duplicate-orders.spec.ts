import { expect, test } from '../support/e2e/fixtures';
import { expectNoAxeBlockersInBothThemes } from '../support/e2e/axe';
import {
  chooseAllForReview,
  connectPartner,
  expectBatchFinished,
  runCount,
  seedProtocols,
} from '../support/e2e/batches';
import { protocolFor, serverOrdersBySourceId } from '../support/bulk';
import type { TestSandbox } from '../support/sandbox';
import { saveScreen } from '../support/e2e/screens';

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
