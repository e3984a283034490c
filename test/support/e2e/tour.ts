import { expect, type Page } from '@playwright/test';
import type { AppOrder } from '@shared/api';
import type { TestSandbox } from '@test/support/sandbox';
import { editOnServer, protocolRequest } from '@test/support/sync-harness';
import { expectConnected, openCatalog, openProduct } from './app';
import { expectBatchFinished } from './batches';
import { goTo } from './editor';
import type { BrowserHost } from './fixtures';
import { draftProtocol, patientBody, placeOrder } from './local-orders';

/**
 * A walk through every screen of the app with data on each (protocols, orders, a batch, refills
 * due, a conflict), for the checks that look at whole screens: layout at several window sizes,
 * axe. The seeding goes through the host's core and the partner sandbox's API, not the screens.
 */

/** The screens the tour stops at, in order. */
export const TOUR_SCREENS = [
  'protocols',
  'editor',
  'orders',
  'batch-review',
  'batch-run',
  'batches',
  'refills',
  'catalog',
  'conflicts',
  'settings',
  'connect',
  'activity',
] as const;
export type TourScreen = (typeof TOUR_SCREENS)[number];

/** Patients with names of ordinary and of awkward length (a long name must not widen a table). */
const PATIENTS = [
  { sourceId: 'tour-ada', firstName: 'Ada', lastName: 'Lovelace' },
  { sourceId: 'tour-max', firstName: 'Maximiliana', lastName: 'Vandenberghe-Oyelaran' },
  { sourceId: 'tour-bo', firstName: 'Bo', lastName: 'Ek' },
] as const;

interface Seeded {
  editorId: string;
  orderId: string;
}

/** Connects the host to the partner sandbox (as the Connect screen would) and seeds it. */
async function seed(app: Page, host: BrowserHost, sandbox: TestSandbox): Promise<Seeded> {
  await host.core.connect(
    {
      kind: 'partner-sandbox',
      label: 'Clinic test server',
      baseUrl: sandbox.baseUrl,
      authUrl: sandbox.authUrl,
      clientId: sandbox.clientId,
    },
    sandbox.clientSecret,
  );
  // People share the desk: the header asks who is at it (a long name must not push it over).
  host.core.desk.add('Dana Reyes');
  host.core.desk.add('Maximiliana Vandenberghe-Oyelaran');
  host.core.desk.choose('Maximiliana Vandenberghe-Oyelaran');
  await app.reload();
  await expectConnected(app, 'Clinic test server');
  const session = host.core.session!;
  const ids = PATIENTS.map((p) => draftProtocol(host, patientBody(p)));
  // Orders the app knows: Ada's runs out within 30 days (a refill due), the other much later.
  const order: AppOrder = await placeOrder(host, patientBody(PATIENTS[0], 30));
  await placeOrder(host, patientBody(PATIENTS[1], 90));
  // A conflict: edited here and, meanwhile, on the server.
  const { localId } = session.protocols.create(protocolRequest('Conflicted'));
  await session.sync.syncNow();
  const serverId = host.core.store.protocols.get(localId)!.serverId!;
  await editOnServer(sandbox, serverId, protocolRequest('TheirsConflicted', { quantity: 3 }));
  session.protocols.update(localId, protocolRequest('MineConflicted'));
  await expect
    .poll(async () => {
      await session.sync.syncNow();
      return session.protocols.conflicts().length;
    })
    .toBe(1);
  return { editorId: ids[1]!, orderId: order.id };
}

const heading = (page: Page, name: string | RegExp) =>
  page.getByRole('heading', { level: 1, name });

/**
 * Seeds, then opens each screen in TOUR_SCREENS order and calls `at` once it shows its data.
 * The screens are reached as a user would: the screen shortcuts, links and buttons (the editor
 * and an order's detail by their address).
 */
export async function tourEveryScreen(
  app: Page,
  host: BrowserHost,
  sandbox: TestSandbox,
  at: (screen: TourScreen) => Promise<void>,
): Promise<void> {
  const { editorId, orderId } = await seed(app, host, sandbox);
  const keys = app.keyboard;

  await keys.press('Control+1');
  await expect(heading(app, 'Protocols')).toBeVisible();
  await expect(app.getByRole('list', { name: 'Protocols' }).getByRole('listitem')).toHaveCount(4);
  await at('protocols');

  await goTo(app, `#/protocols/${editorId}`);
  await expect(heading(app, 'Protocol for Maximiliana Vandenberghe-Oyelaran')).toBeVisible();
  await at('editor');

  await goTo(app, `#/orders/${orderId}`);
  const details = app.getByRole('region', { name: 'Order details' });
  await expect(details.getByRole('table').first()).toBeVisible();
  await at('orders');

  await keys.press('Control+1');
  const selection = app.getByRole('group', { name: 'Selection for a batch' });
  await selection.getByRole('button', { name: /^Select all \d+$/ }).click();
  await selection.getByRole('button', { name: /^Review batch \(\d+\)$/ }).click();
  await expect(heading(app, 'Review the batch')).toBeVisible();
  await expect(app.getByRole('button', { name: /^Submit \d+ orders?…$/ })).toBeEnabled({
    timeout: 20_000,
  });
  await at('batch-review');

  await app.getByRole('button', { name: /^Submit \d+ orders?…$/ }).click();
  await app
    .getByRole('dialog', { name: /^Send \d+ orders?\?$/ })
    .getByRole('button', { name: /^Send \d+ orders?$/ })
    .click();
  await expect(heading(app, /^Batch of /)).toBeVisible();
  await expectBatchFinished(app);
  await at('batch-run');

  await keys.press('Control+3');
  await expect(heading(app, 'Batches')).toBeVisible();
  await expect(app.getByRole('link', { name: /^Batch of / }).first()).toBeVisible();
  await at('batches');

  await keys.press('Control+4');
  await expect(heading(app, 'Refills due')).toBeVisible();
  await expect(
    app.getByRole('table', { name: /^Protocols whose supply runs out within/ }).getByRole('row'),
  ).not.toHaveCount(0);
  await at('refills');

  await openCatalog(app);
  await openProduct(app, 'Magnesium Glycinate 120 mg');
  await at('catalog');

  await keys.press('Control+5');
  await expect(heading(app, 'Conflicts')).toBeVisible();
  await expect(app.getByRole('region', { name: /Conflicted/ }).first()).toBeVisible();
  await at('conflicts');

  await keys.press('Control+7');
  await expect(app.getByRole('form', { name: 'Partner settings' })).toBeVisible();
  await at('settings');

  await keys.press('Control+8');
  await expect(heading(app, 'Connection')).toBeVisible();
  await at('connect');

  await app
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Activity' })
    .click();
  await expect(heading(app, 'Activity')).toBeVisible();
  await expect(app.getByTestId('activity-check')).toContainText('Record intact');
  await expect(
    app.getByRole('list', { name: 'Activity entries, newest first' }).getByRole('article'),
  ).not.toHaveCount(0);
  await at('activity');
}
