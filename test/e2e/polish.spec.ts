import type { Page } from '@playwright/test';
import { expect, test } from '@test/support/e2e/fixtures';
import {
  connectLocalSandbox,
  expectFirstRunConnect,
  expectOnScreen,
  fillPartnerForm,
  partnerForm,
  ui,
} from '@test/support/e2e/app';
import { connectPartner } from '@test/support/e2e/batches';
import { saveScreen } from '@test/support/e2e/screens';
import { expectNoAxeBlockersInBothThemes } from '@test/support/e2e/axe';
import { KeytarCredentialStore } from '@main/connections/keychain';
import { secretAccount } from '@main/connections/connection';
import { BROWSER_HOST_PATHS } from '@shared/ipc';
import { editOnServer, protocolRequest } from '@test/support/sync-harness';

/** What a new user tripped on (issue 12 item 8), on screen. */

test('a long sync error keeps the header on one row; Details shows all of it', async ({
  app,
  host,
}, testInfo) => {
  await connectLocalSandbox(app);
  const banner = ui.banner(app);
  const oneRow = await banner.boundingBox();
  const error = `The server answered 500 Internal Server Error: ${'upstream fulfillment partner timed out while reading the catalog; '.repeat(6)}(request id 7f3a)`;
  host.core.bus.emit('sync-state', { phase: 'error', lastSyncedAt: null, error, skipped: [] });

  const status = app.getByTestId('sync-status');
  await expect(status).toHaveText(`Sync failed: ${error}`); // all of it, for screen readers
  await expect(status).toHaveAttribute('title', `Sync failed: ${error}`);
  const box = (await banner.boundingBox())!;
  expect(box.height, 'the header keeps its height: one row').toBe(oneRow!.height);
  // Cut with an ellipsis: the text is wider than the room it has.
  expect(await status.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
  // The rest of the header is still there.
  await expect(banner.getByRole('button', { name: 'Sync now' })).toBeVisible();
  await saveScreen(app, testInfo, 'header-long-sync-error');
  await expectNoAxeBlockersInBothThemes(app, testInfo, 'header-long-sync-error');

  await banner.getByRole('button', { name: 'Details of the sync error' }).click();
  const dialog = app.getByRole('dialog', { name: 'The sync failed' });
  await expect(dialog).toContainText('(request id 7f3a)');
  await saveScreen(app, testInfo, 'header-sync-error-details');
  await app.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(banner.getByRole('button', { name: 'Details of the sync error' })).toBeFocused();

  // At a narrow window too.
  await app.setViewportSize({ width: 900, height: 700 });
  expect((await banner.boundingBox())!.height).toBe(oneRow!.height);
});

interface HeaderItem {
  className: string | { baseVal: string };
  tagName: string;
  textContent: string | null;
  getBoundingClientRect(): {
    left: number;
    right: number;
    top: number;
    bottom: number;
    width: number;
  };
}

/**
 * The header's items (the connection's name, kind and desk select, each pill, text and button of
 * the status) that overlap another, or reach past the header: "a X b" or "a: outside".
 */
function headerClashes(page: Page): Promise<string[]> {
  return ui.banner(page).evaluate((node) => {
    const header = node as unknown as HeaderItem & {
      querySelectorAll(s: string): Iterable<HeaderItem>;
    };
    const items = [
      ...header.querySelectorAll(
        '.header-connection > :not(.header-desk), .header-desk > *, .header-status > *',
      ),
    ].filter((el) => el.getBoundingClientRect().width > 1); // not the visually hidden
    const name = (el: HeaderItem) =>
      `${el.tagName.toLowerCase()}.${typeof el.className === 'string' ? el.className : el.className.baseVal} "${el.textContent}"`;
    const found: string[] = [];
    const edge = header.getBoundingClientRect();
    items.forEach((el, i) => {
      const a = el.getBoundingClientRect();
      if (a.left < edge.left - 0.5 || a.right > edge.right + 0.5)
        found.push(`${name(el)}: outside`);
      for (const other of items.slice(i + 1)) {
        const b = other.getBoundingClientRect();
        const apart =
          a.right <= b.left + 0.5 ||
          b.right <= a.left + 0.5 ||
          a.bottom <= b.top + 0.5 ||
          b.bottom <= a.top + 0.5;
        if (!apart) found.push(`${name(el)} X ${name(other)}`);
      }
    });
    return found;
  });
}

test('a crowded header at 1024×700: a partner connection, the desk, offline, unsynced changes, a conflict; nothing overlaps', async ({
  app,
  host,
  partnerSandbox,
}, testInfo) => {
  await app.setViewportSize({ width: 1024, height: 700 });
  await connectPartner(app, partnerSandbox);
  host.core.desk.add('Dana Reyes');
  host.core.desk.add('Maximiliana Vandenberghe-Oyelaran');
  host.core.desk.choose('Maximiliana Vandenberghe-Oyelaran');
  const banner = ui.banner(app);
  await expect(banner.getByRole('combobox', { name: 'At the desk' })).toBeVisible();
  // A conflict: changed here and, meanwhile, on the server.
  const session = host.core.session!;
  const { localId } = session.protocols.create(protocolRequest('Conflicted'));
  await session.sync.syncNow();
  const serverId = host.core.store.protocols.get(localId)!.serverId!;
  await editOnServer(
    partnerSandbox,
    serverId,
    protocolRequest('TheirsConflicted', { quantity: 3 }),
  );
  session.protocols.update(localId, protocolRequest('MineConflicted'));
  await expect
    .poll(async () => {
      await session.sync.syncNow();
      return session.protocols.conflicts().length;
    })
    .toBe(1);
  await expect(banner.getByRole('link', { name: '1 conflict to resolve' })).toBeVisible();
  expect(await headerClashes(app)).toEqual([]);

  // The server goes away with work waiting: Offline, unsynced changes, a failed sync.
  await partnerSandbox.close();
  for (let i = 0; i < 5; i++)
    session.protocols.create(protocolRequest(`Waiting${i}`, { sourceId: `wait-${i}` }));
  await banner.getByRole('button', { name: 'Sync now' }).click();
  await expect(banner.getByText('Offline', { exact: true })).toBeVisible();
  await expect(app.getByTestId('unsynced-count')).toHaveText(/^\d+ unsynced changes/);
  await expect(banner.getByRole('link', { name: '1 conflict to resolve' })).toBeVisible();
  expect(await headerClashes(app)).toEqual([]);
  // Each still says what it is, in fewer words.
  await expect(app.getByTestId('unsynced-count')).toBeInViewport({ ratio: 1 });
  await expect(banner.getByRole('combobox', { name: 'At the desk' })).toBeInViewport({ ratio: 1 });
  await expect(banner.getByRole('button', { name: 'Sync now' })).toBeInViewport({ ratio: 1 });
  await saveScreen(app, testInfo, 'header-crowded-1024', { fullPage: false });
  await app.setViewportSize({ width: 1280, height: 800 });
  expect(await headerClashes(app)).toEqual([]);
  await saveScreen(app, testInfo, 'header-crowded-1280', { fullPage: false });
});

test('switching between Partner sandbox and Production keeps what was typed for each', async ({
  app,
}) => {
  await expectFirstRunConnect(app);
  await fillPartnerForm(app, {
    baseUrl: 'https://sandbox.partner.example/v1',
    authUrl: 'https://auth.sandbox.partner.example',
    clientId: 'clinic-test',
    clientSecret: 'typed-secret',
  });
  await app.getByRole('radio', { name: 'Production' }).check();
  const production = app.getByRole('form', { name: 'Connect to production' });
  await production.getByLabel('Base URL', { exact: true }).fill('https://api.partner.example/v1');
  await app.getByRole('radio', { name: 'Local sandbox (built in)' }).check();
  await app.getByRole('radio', { name: 'Partner sandbox' }).check();
  const form = partnerForm(app);
  await expect(form.getByLabel('Label', { exact: true })).toHaveValue('Clinic test server');
  await expect(form.getByLabel('Base URL', { exact: true })).toHaveValue(
    'https://sandbox.partner.example/v1',
  );
  await expect(form.getByLabel('Client ID', { exact: true })).toHaveValue('clinic-test');
  await expect(form.getByLabel('Client secret', { exact: true })).toHaveValue('typed-secret');
  // Under the system keychain, the hint says so.
  await expect(form.getByLabel('Client secret', { exact: true })).toHaveAccessibleDescription(
    /Kept in the system keychain/,
  );
  await app.getByRole('radio', { name: 'Production' }).check();
  await expect(production.getByLabel('Base URL', { exact: true })).toHaveValue(
    'https://api.partner.example/v1',
  );
  await expect(production.getByLabel('Label', { exact: true })).toHaveValue('Production');
});

test('a saved connection whose secret left the keychain: Settings says so, Edit takes it again, no duplicate', async ({
  app,
  host,
  partnerSandbox,
  keychainService,
}, testInfo) => {
  await connectPartner(app, partnerSandbox);
  const [saved] = host.core.listConnections().filter((c) => c.kind !== 'embedded');
  await new KeytarCredentialStore(keychainService).delete(secretAccount(saved!));
  await host.core.activate(saved!.id); // as at the next start: the session reads the keychain

  // Settings: not "the server refused the credentials", but what is missing and how to fix it.
  await ui.sidebar(app).getByRole('link', { name: 'Settings' }).click();
  const failed = app.getByRole('alert').filter({ hasText: 'Partner settings could not be loaded' });
  await expect(failed).toContainText('missing from the keychain');
  await expect(failed).toContainText('Nothing was sent to the server');
  await expect(failed).not.toContainText('refused');
  await saveScreen(app, testInfo, 'settings-secret-missing');

  // The Connection screen says so on the saved connection, and Edit takes the secret again.
  await app.keyboard.press('Control+8');
  const list = app.getByRole('region', { name: 'Saved connections' });
  const item = list.getByRole('listitem').filter({ hasText: 'Clinic test server' });
  await expect(item).toContainText('Secret missing');
  await expect(item).toContainText('missing from the keychain');
  await saveScreen(app, testInfo, 'connection-secret-missing');
  await expectNoAxeBlockersInBothThemes(app, testInfo, 'connection-secret-missing');
  await item.getByRole('button', { name: 'Edit Clinic test server' }).click();
  const edit = app.getByRole('form', { name: 'Edit Clinic test server' });
  await expect(edit.getByLabel('Base URL', { exact: true })).toHaveValue(partnerSandbox.baseUrl);
  await edit.getByRole('button', { name: 'Save and connect' }).click();
  await expect(edit.getByLabel('Client secret', { exact: true })).toHaveAttribute(
    'aria-invalid',
    'true',
  );
  await edit.getByLabel('Client secret', { exact: true }).fill(partnerSandbox.clientSecret);
  await saveScreen(app, testInfo, 'connection-edit');
  await expectNoAxeBlockersInBothThemes(app, testInfo, 'connection-edit');
  await edit.getByRole('button', { name: 'Save and connect' }).click();
  await expect(edit).toBeHidden();
  await expect(item).not.toContainText('Secret missing');
  await ui.sidebar(app).getByRole('link', { name: 'Settings' }).click();
  await expect(app.getByRole('form', { name: 'Partner settings' })).toBeVisible();

  // Adding it again with the same label updates it: still one "Clinic test server".
  await app.keyboard.press('Control+8');
  await fillPartnerForm(app, partnerSandbox);
  await partnerForm(app).getByRole('button', { name: 'Connect', exact: true }).click();
  await expectOnScreen(app, 'Dashboard');
  await app.keyboard.press('Control+8');
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(list.getByRole('listitem').filter({ hasText: 'Clinic test server' })).toHaveCount(1);
  expect(host.core.listConnections().filter((c) => c.label === 'Clinic test server')).toHaveLength(
    1,
  );
});

test('a tab of an earlier launch says so at once, and the new address pasted into it works', async ({
  page,
  host,
  pageErrors,
}, testInfo) => {
  // The host refuses the old token (Chromium logs the refusals; the page says what to do).
  pageErrors.allow(
    /^console\.error: WebSocket connection to '[^']+' failed: HTTP Authentication failed/,
  );
  pageErrors.allow(
    /^console\.error: Failed to load resource: the server responded with a status of 401/,
  );
  const origin = new URL(host.url).origin;
  // A token of another launch (as a tab left open across a restart of the host holds).
  await page.goto(`${origin}/#token=${'A'.repeat(43)}`);
  await expect(page.getByRole('heading', { name: 'Order Desk could not start' })).toBeVisible();
  await expect(page.getByRole('alert')).toContainText('from an earlier launch of the browser host');
  await expect(page.getByRole('alert')).not.toContainText('still running');
  await saveScreen(page, testInfo, 'browser-host-stale-token');
  // The host answers the check without revealing anything else.
  expect(
    (await page.request.get(`${origin}${BROWSER_HOST_PATHS.tokenCheck}?token=x`)).status(),
  ).toBe(401);

  // The new address pasted into the same tab: only the #token changes, no manual reload.
  await page.evaluate((hash) => {
    (globalThis as unknown as { location: { hash: string } }).location.hash = hash;
  }, new URL(host.url).hash);
  await expectFirstRunConnect(page);
  expect(new URL(page.url()).hash).not.toContain('token');
});
