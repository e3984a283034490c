import type { Page } from '@playwright/test';
import { expect, test } from '@test/support/e2e/fixtures';
import {
  escapeRegExp,
  expectConnected,
  expectFirstRunConnect,
  fillPartnerForm,
  partnerForm,
  ui,
} from '@test/support/e2e/app';
import {
  chooseAllForReview,
  expectBatchFinished,
  expectOneServerOrderEach,
  injectOrderFaults,
  openBatchFromList,
  runCount,
  seedProtocols,
  submitFromReview,
} from '@test/support/e2e/batches';
import { expectNoAxeBlockersInBothThemes } from '@test/support/e2e/axe';
import { saveScreen } from '@test/support/e2e/screens';
import { clearFaults, protocolFor } from '@test/support/bulk';
import {
  PORTAL_PAGE,
  rewriteJson,
  startRewritingProxy,
  type RewritingProxy,
} from '@test/support/rewriting-proxy';
import type { TestSandbox } from '@test/support/sandbox';

/**
 * What the header and the screens say when the server is not what the app expects: a client
 * secret rotated on the partner's side, a captive portal answering in the server's place, an order
 * in a status the app does not know.
 */

test.describe.configure({ timeout: 120_000 });

const connectivity = (page: Page) => ui.banner(page).getByTestId('connectivity');

/** Connects the app to the partner sandbox through `proxy` (what the app knows as the server). */
async function connectThrough(page: Page, sandbox: TestSandbox, proxy: RewritingProxy) {
  await expectFirstRunConnect(page);
  await fillPartnerForm(page, {
    baseUrl: proxy.baseUrl,
    authUrl: proxy.authUrl,
    clientId: sandbox.clientId,
    clientSecret: sandbox.clientSecret,
  });
  await partnerForm(page).getByRole('button', { name: 'Connect', exact: true }).click();
  await expectConnected(page, 'Clinic test server');
}

/** A token of the sandbox's client issued with `secret`. */
async function tokenWith(sandbox: TestSandbox, secret: string): Promise<string> {
  const res = await fetch(sandbox.tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: sandbox.clientId,
      client_secret: secret,
    }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

test('a client secret rotated during a batch: the header and the batch say credentials rejected, and the new secret resumes it to exactly 12 orders', async ({
  app,
  host,
  partnerSandbox,
}, testInfo) => {
  await expectFirstRunConnect(app);
  await fillPartnerForm(app, partnerSandbox);
  await partnerForm(app).getByRole('button', { name: 'Connect', exact: true }).click();
  await expectConnected(app, 'Clinic test server');
  await expect(connectivity(app)).toHaveText('Online');
  seedProtocols(host, 12, 'rotated');
  await chooseAllForReview(app, 12);
  // Slow creates (three rounds of four), so that the batch still has orders to send when the
  // secret is rotated after the first ones.
  await injectOrderFaults(partnerSandbox, { latencyMs: 1_500 });
  const batchId = await submitFromReview(app, 12);
  await expect
    .poll(() => host.core.session!.bulk.progress(batchId).created, { timeout: 30_000 })
    .toBeGreaterThanOrEqual(2);

  // The partner rotates the secret on its portal: the old one and its tokens are refused.
  const rotated = await partnerSandbox.api('POST', '/_sandbox/rotate-client-secret', {
    clientId: partnerSandbox.clientId,
    clientSecret: 'the-rotated-secret',
  });
  expect(rotated.status).toBe(200);
  await expect(connectivity(app)).toHaveText('Credentials rejected', { timeout: 20_000 });
  await expect(
    ui.banner(app).getByRole('status').filter({ hasText: 'Enter the new client secret' }),
  ).toHaveCount(1);
  await expect(app.locator('.batch-status [role="status"]')).toHaveText(
    'Held: credentials rejected',
  );
  const held = app.getByTestId('batch-held');
  await expect(held).toContainText('nothing is lost or marked failed');
  await expect(runCount(app, 'rejected')).toHaveText('0');
  await expectNoAxeBlockersInBothThemes(app, testInfo, 'batch-held-credentials-rejected', {
    screenshot: true,
  });

  // Sync now asks nothing of the server and says why.
  await ui.banner(app).getByRole('button', { name: 'Sync now' }).click();
  const toast = app.getByRole('alert').filter({ hasText: 'Nothing was synced.' });
  await expect(toast).toContainText("The server rejected this connection's credentials");
  await saveScreen(app, testInfo, 'header-credentials-rejected', { fullPage: false });
  await toast.getByRole('button', { name: 'Dismiss notification' }).click();

  // The way out: enter the new secret.
  await held.getByRole('link', { name: 'Enter the new secret' }).click();
  await expect(app.getByRole('heading', { level: 1, name: 'Connection' })).toBeVisible();
  await app.getByRole('button', { name: 'Edit Clinic test server' }).click();
  const form = app.getByRole('form', { name: 'Edit Clinic test server' });
  await form.getByLabel('Client secret', { exact: true }).fill('the-rotated-secret');
  await form.getByRole('button', { name: 'Save and connect' }).click();
  await expect(connectivity(app)).toHaveText('Online', { timeout: 20_000 });

  partnerSandbox.token = await tokenWith(partnerSandbox, 'the-rotated-secret');
  await clearFaults(partnerSandbox);
  await openBatchFromList(app, /^Batch of 12 protocols/);
  await expectBatchFinished(app);
  await expect(runCount(app, 'created')).toHaveText('12');
  await expect(runCount(app, 'rejected')).toHaveText('0');
  await expectOneServerOrderEach(partnerSandbox, 'rotated', 12);
  await saveScreen(app, testInfo, 'batch-resumed-after-new-secret');
});

test('a captive portal in place of the server: the header says offline and why, then online again', async ({
  app,
  partnerSandbox,
}, testInfo) => {
  const proxy = await startRewritingProxy(partnerSandbox.origin);
  try {
    await connectThrough(app, partnerSandbox, proxy);
    await expect(connectivity(app)).toHaveText('Online');
    proxy.intercept = () => ({ answer: PORTAL_PAGE });
    await ui.banner(app).getByRole('button', { name: 'Sync now' }).click();
    await expect(connectivity(app)).toHaveText('Offline');
    await expect(connectivity(app)).toHaveAttribute(
      'title',
      /The network is not reaching the server \(an answer that is not the API's/,
    );
    await expect(ui.banner(app).getByTestId('sync-status')).toHaveText(
      'Waiting for the network to reach the server',
    );
    await expect(app.getByText(/^The network is not reaching the server/).first()).toBeVisible();
    await saveScreen(app, testInfo, 'header-offline-not-the-api', { fullPage: false });

    // Signed in to the Wi-Fi: the probe reaches the server and the header says so.
    proxy.intercept = null;
    await expect(connectivity(app)).toHaveText('Online', { timeout: 30_000 });
    await saveScreen(app, testInfo, 'header-online', { fullPage: false });
  } finally {
    await proxy.close();
  }
});

test('an order in a status the app does not know is shown as it came, counted and filtered', async ({
  app,
  host,
  partnerSandbox,
}, testInfo) => {
  const proxy = await startRewritingProxy(partnerSandbox.origin);
  try {
    await connectThrough(app, partnerSandbox, proxy);
    const session = host.core.session!;
    const held = await session.client.createOrder(protocolFor('on-hold-1'));
    const plain = await session.client.createOrder(protocolFor('plain-1'));
    for (const order of [held, plain]) host.core.store.orders.upsert(order, { source: 'created' });
    // The server reports it ON_HOLD, whether the poller reads it alone or in a page.
    const onHold = (o: { id: string; status: string }) =>
      o.id === held.id ? { ...o, status: 'ON_HOLD' } : o;
    proxy.rewrite = (req, answer) =>
      req.method !== 'GET' || !req.path.startsWith('/v1/orders')
        ? answer
        : rewriteJson(answer, (body) => {
            const b = body as {
              orders?: { id: string; status: string }[];
              id: string;
              status: string;
            };
            return b.orders ? { ...b, orders: b.orders.map(onHold) } : onHold(b);
          });
    // The poller's next cycle, now.
    for (const order of [held, plain])
      host.core.store.orders.schedulePoll(order.id, { nextPollAt: 0 });
    const report = await session.poller.pollOnce();
    expect(report.error).toBeNull();

    await ui.sidebar(app).getByRole('link', { name: 'Orders' }).click();
    await expect(app.getByRole('heading', { level: 1, name: 'Orders' })).toBeVisible();
    const queue = app.getByRole('list', { name: 'Orders' });
    const row = queue.getByRole('link', { name: new RegExp(escapeRegExp(held.id)) });
    await expect(row).toContainText('On hold (unknown status)');
    const chip = app
      .getByRole('group', { name: 'Filter by status' })
      .getByRole('checkbox', { name: /^On hold \(unknown status\)/ });
    await expect(chip).toHaveAccessibleDescription(/1 order/);
    await chip.check();
    await expect(queue.getByRole('listitem')).toHaveCount(1);
    await row.click();
    await expect(app.getByRole('region', { name: 'Order details' })).toContainText(
      'On hold (unknown status)',
    );
    await expectNoAxeBlockersInBothThemes(app, testInfo, 'orders-unknown-status', {
      screenshot: true,
    });
  } finally {
    await proxy.close();
  }
});
