import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { generateProtocols } from '@bench/protocol-search-data';
import { KeytarCredentialStore } from '@main/connections/keychain';
import { EMBEDDED_CONNECTION_ID } from '@main/embedded-sandbox';
import { storeFileKind } from '@main/db/cipher';
import { createLocalStore } from '@main/stores';
import { connectionStoreFile } from '@main/db';
import { storeKeyAccount } from '@main/stores/profile-key';
import { HOST_DOWN, expect, test, type BrowserHost } from '@test/support/e2e/fixtures';
import {
  connectLocalSandbox,
  expectConnected,
  expectFirstRunConnect,
  ui,
} from '@test/support/e2e/app';
import { expectNoAxeBlockersInBothThemes } from '@test/support/e2e/axe';
import { startHostAgain } from '@test/support/e2e/batches';
import { saveScreen } from '@test/support/e2e/screens';
import {
  asBeforeEncryption,
  filesContaining,
  profileIdOf,
  profileKeyOf,
} from '@test/support/plain-profile';

/**
 * The data folder on the first start of this version, and when its key cannot be found, as a
 * user meets them in the window: a progress bar while the stores of the version before are
 * encrypted; the files named, "Try again" and "Start fresh" when the keychain has no key.
 */

/**
 * A desk that used the local sandbox, closed: the page left on a blank page first, so nothing of
 * it still asks the stopped host for a screen's code.
 */
async function closedDesk(app: Page, host: BrowserHost): Promise<void> {
  await connectLocalSandbox(app);
  await app.goto('about:blank');
  await host.close();
}

/** The heading of the start that cannot open the data. */
const cannotOpen = (page: Page) =>
  page.getByRole('heading', { level: 1, name: 'This desk’s data cannot be opened' });

/** Enough protocols for the encryption to take a few seconds on the build machines. */
const SEEDED = 25_000;

test('the first start of this version encrypts the data of the version before, with a progress bar, and opens on it', async ({
  app,
  host,
  dataDir,
  keychainService,
  partnerSandbox,
  page,
  pageErrors,
}, testInfo) => {
  test.setTimeout(180_000);
  for (const pattern of HOST_DOWN) pageErrors.allow(pattern);
  await connectLocalSandbox(app);
  // A second connection, not the active one, with a large store: the clinic's partner server.
  const partner = await host.core.connect(
    {
      kind: 'partner-sandbox',
      label: 'Clinic test server',
      baseUrl: partnerSandbox.baseUrl,
      authUrl: partnerSandbox.authUrl,
      clientId: partnerSandbox.clientId,
    },
    partnerSandbox.clientSecret,
  );
  await host.core.useEmbedded();
  await page.goto('about:blank');
  await host.close();
  const credentials = new KeytarCredentialStore(keychainService);
  const key = await profileKeyOf(dataDir, credentials);
  const partnerFile = connectionStoreFile(dataDir, partner.id);
  const seeded = generateProtocols(SEEDED);
  const store = createLocalStore(partnerFile, { key });
  store.protocols.upsertManyFromServer(seeded);
  store.close();
  const someone = seeded[0]!.customer;
  // As the version before left it: every store plain, no key anywhere.
  const plain = asBeforeEncryption(dataDir, key);
  expect(filesContaining(dataDir, someone.sourceId).length).toBeGreaterThan(0);

  const again = await startHostAgain(dataDir, keychainService);
  try {
    await page.goto(again.host.url);
    await expect(
      page.getByRole('heading', { level: 1, name: 'Encrypting this desk’s data' }),
    ).toBeVisible();
    const bar = page.getByRole('progressbar', { name: 'Encrypting' });
    await expect(bar).toHaveAttribute('aria-valuetext', /^\d+%, file \d of 4$/);
    await saveScreen(page, testInfo, 'startup-encrypting', { fullPage: false });

    // Then the app, on the connection it had; its activity record says the app encrypted it.
    await expectConnected(page, 'Local sandbox');
    await ui.sidebar(page).getByRole('link', { name: 'Activity', exact: true }).click();
    await expect(page.getByRole('article', { name: /^Local database encrypted/ })).toContainText(
      'with this desk’s key, kept in the system keychain',
    );
  } finally {
    await page.goto('about:blank');
    await again.close();
  }
  for (const file of plain) expect(storeFileKind(file), file).toBe('encrypted');
  expect(filesContaining(dataDir, someone.sourceId)).toEqual([]);
  const reopened = createLocalStore(partnerFile, {
    key: await profileKeyOf(dataDir, credentials),
  });
  try {
    expect(reopened.protocols.count()).toBe(SEEDED);
  } finally {
    reopened.close();
  }
});

test('a key missing from the keychain: the window names the files; restored, "Try again" opens them', async ({
  app,
  host,
  dataDir,
  keychainService,
  page,
  pageErrors,
}, testInfo) => {
  for (const pattern of HOST_DOWN) pageErrors.allow(pattern);
  await closedDesk(app, host);
  const credentials = new KeytarCredentialStore(keychainService);
  const key = await profileKeyOf(dataDir, credentials);
  const profileId = profileIdOf(dataDir);
  await credentials.delete(storeKeyAccount(profileId));

  const again = await startHostAgain(dataDir, keychainService);
  try {
    await page.goto(again.host.url);
    await expect(cannotOpen(page)).toBeVisible();
    await expect(page.getByRole('alert')).toContainText('not in this computer’s keychain');
    const files = page.getByRole('region', { name: /^The \d files$/ });
    await expect(files.getByRole('listitem')).toContainText([
      join(dataDir, 'app.db'),
      connectionStoreFile(dataDir, EMBEDDED_CONNECTION_ID),
    ]);
    await expectNoAxeBlockersInBothThemes(page, testInfo, 'startup-key-missing', {
      screenshot: true,
    });

    await credentials.set(storeKeyAccount(profileId), key);
    await page.getByRole('button', { name: 'Try again' }).click();
    await expectConnected(page, 'Local sandbox');
  } finally {
    // Off the app first: the screens' code it still fetches must not meet a stopped host.
    await page.goto('about:blank');
    await again.close();
  }
});

test('keyboard only: "Start fresh" asks first, sets the files aside, and opens on the Connect screen', async ({
  app,
  host,
  dataDir,
  keychainService,
  page,
  pageErrors,
}, testInfo) => {
  for (const pattern of HOST_DOWN) pageErrors.allow(pattern);
  await closedDesk(app, host);
  const credentials = new KeytarCredentialStore(keychainService);
  // Another key than the one the files were made with: a folder restored from elsewhere.
  await credentials.set(storeKeyAccount(profileIdOf(dataDir)), 'ab'.repeat(32));

  const again = await startHostAgain(dataDir, keychainService);
  try {
    await page.goto(again.host.url);
    await expect(cannotOpen(page)).toBeVisible();
    // Tab to the second button: Try again, then Start fresh.
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Try again' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Start fresh…' })).toBeFocused();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('alertdialog', { name: 'Start fresh?' });
    await expect(dialog.getByRole('button', { name: 'Keep waiting' })).toBeFocused();
    await saveScreen(page, testInfo, 'startup-start-fresh-confirm', { fullPage: false });
    await page.keyboard.press('Tab');
    await expect(dialog.getByRole('button', { name: 'Start fresh' })).toBeFocused();
    await page.keyboard.press('Enter');

    await expectFirstRunConnect(page);
    // Every file the wrong key could not open is kept, under its new name.
    const kept = [dataDir, join(dataDir, 'connections')].flatMap((dir) =>
      readdirSync(dir).filter((f) => /\.unreadable-\d{8}-\d{6}\.db$/.test(f)),
    );
    expect(kept.map((f) => f.split('.')[0]).sort()).toEqual(['app', 'embedded', 'sandbox']);
  } finally {
    // Off the app first: the screens' code it still fetches must not meet a stopped host.
    await page.goto('about:blank');
    await again.close();
  }
});
