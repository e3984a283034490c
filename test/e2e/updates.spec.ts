import type { Page } from '@playwright/test';
import { startBrowserHost } from '@main/browser-host';
import { MemoryCredentialStore } from '@main/connections/keychain';
import { Redactor, silentLogger } from '@main/logging';
import { FakeUpdater } from '@test/support/fake-updater';
import { connectLocalSandbox, ui } from '@test/support/e2e/app';
import { BRIDGE_FILE, RENDERER_DIR } from '@test/support/e2e/paths';
import { expect, test } from '@test/support/e2e/fixtures';
import { expectNoAxeBlockersInBothThemes } from '@test/support/e2e/axe';
import { saveScreen } from '@test/support/e2e/screens';

/**
 * Settings > Updates in the browser host: there is no updater here, so the settings are saved and
 * kept (for the installed app) but nothing is checked; a feed URL that is not https is refused
 * on its field.
 */

const section = (page: Page) => page.getByRole('region', { name: 'Updates' });
const form = (page: Page) => page.getByRole('form', { name: 'Update settings' });
const toggle = (page: Page) =>
  form(page).getByRole('switch', { name: 'Check for updates and download them' });
const feedUrl = (page: Page) => form(page).getByRole('textbox', { name: 'Update feed URL' });

async function openSettings(page: Page) {
  await ui.sidebar(page).getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  await expect(section(page)).toBeVisible();
}

test('update settings are saved and kept in the browser host; a bad feed URL is refused on its field', async ({
  app,
  host,
}, testInfo) => {
  await connectLocalSandbox(app);
  await openSettings(app);
  // Off by default, and said to apply to the desktop app; nothing to check here.
  await expect(toggle(app)).not.toBeChecked();
  await expect(feedUrl(app)).toHaveValue('');
  await expect(section(app)).toContainText('Updates apply to the installed desktop app.');
  await expect(section(app).getByRole('button', { name: 'Check now' })).toHaveCount(0);
  await expect(section(app).getByRole('button', { name: 'Restart to update' })).toHaveCount(0);

  // On without a URL, then with a plain-http URL: each refused on the field, nothing saved.
  await toggle(app).check();
  await form(app).getByRole('button', { name: 'Save' }).click();
  await expect(feedUrl(app)).toHaveAttribute('aria-invalid', 'true');
  await expect(feedUrl(app)).toHaveAccessibleDescription(/Required to turn updates on/);
  await feedUrl(app).fill('http://updates.example.com/order-desk/');
  await form(app).getByRole('button', { name: 'Save' }).click();
  await expect(feedUrl(app)).toHaveAccessibleDescription(/Enter an https URL/);
  await saveScreen(app, testInfo, 'settings-updates-bad-url');
  expect(host.core.updates.view().settings).toEqual({ enabled: false, feedUrl: null });

  await feedUrl(app).fill('https://updates.example.com/order-desk/');
  await form(app).getByRole('button', { name: 'Save' }).click();
  await expect(form(app).locator('.form-status')).toHaveText(/Update settings saved\./);
  await expect(feedUrl(app)).not.toHaveAttribute('aria-invalid', 'true');
  expect(host.core.updates.view().settings).toEqual({
    enabled: true,
    feedUrl: 'https://updates.example.com/order-desk/',
  });

  await app.reload();
  await openSettings(app);
  await expect(toggle(app)).toBeChecked();
  await expect(feedUrl(app)).toHaveValue('https://updates.example.com/order-desk/');
  await section(app).scrollIntoViewIfNeeded();
  await saveScreen(app, testInfo, 'settings-updates-saved');

  // Off again: kept off, the URL stays for later.
  await toggle(app).uncheck();
  await form(app).getByRole('button', { name: 'Save' }).click();
  await expect(form(app).locator('.form-status')).toHaveText(/Update settings saved\./);
  expect(host.core.updates.view().settings.enabled).toBe(false);
});

test('with an updater (as in the desktop app): check, download progress, and Restart to update held while a batch runs', async ({
  page,
  dataDir,
}, testInfo) => {
  const updater = new FakeUpdater();
  updater.nextCheck = { version: '0.2.0' };
  const redactor = new Redactor();
  const host = await startBrowserHost({
    rendererDir: RENDERER_DIR,
    bridgeFile: BRIDGE_FILE,
    dataDir,
    credentials: new MemoryCredentialStore(),
    log: silentLogger,
    redactor,
    version: '0.1.0',
    updater,
  });
  try {
    await page.goto(host.url);
    await connectLocalSandbox(page);
    await openSettings(page);
    const status = section(page).locator('.update-status [role="status"]');
    await expect(status).toHaveText(
      'Updates are off. Order Desk 0.1.0 does not look for new versions.',
    );
    const checkNow = section(page).getByRole('button', { name: 'Check now' });
    await expect(checkNow).toBeDisabled();
    await expect(checkNow).toHaveAccessibleDescription('Turn updates on and save to check.');
    expect(updater.calls).toEqual([]);

    // On: the feed is set and checked at once; the update found downloads.
    await toggle(page).check();
    await feedUrl(page).fill('http://127.0.0.1:9/order-desk/');
    await form(page).getByRole('button', { name: 'Save' }).click();
    await expect(status).toHaveText('Downloading version 0.2.0: 0%');
    expect(updater.calls.slice(0, 2)).toEqual([
      'setFeedURL http://127.0.0.1:9/order-desk/',
      'checkForUpdates',
    ]);
    updater.progress(37.5);
    await expect(status).toHaveText('Downloading version 0.2.0: 37%');
    await expect(
      section(page).getByRole('progressbar', { name: 'Downloading version 0.2.0' }),
    ).toHaveAttribute('value', '37');
    await saveScreen(page, testInfo, 'settings-updates-downloading');
    updater.finishDownload();
    await expect(status).toContainText('Version 0.2.0 is downloaded.');

    // A batch is sending orders: the restart waits, and says why.
    const db = host.core.store.db;
    db.prepare(
      "INSERT INTO batches (id, created_at, state, concurrency, total) VALUES ('b-upd', 0, 'running', 1, 0)",
    ).run();
    const progress = {
      batchId: 'b-upd',
      state: 'running' as const,
      total: 0,
      queued: 0,
      sending: 0,
      inDoubt: 0,
      created: 0,
      rejected: 0,
      held: 0,
      possibleDuplicates: 0,
      repeatsCancelled: 0,
    };
    host.core.bus.emit('batch-progress', progress);
    const restart = section(page).getByRole('button', { name: 'Restart to update' });
    await expect(restart).toBeDisabled();
    await expect(restart).toHaveAccessibleDescription(
      'A batch is sending orders: restart when it has finished or is paused.',
    );
    await saveScreen(page, testInfo, 'settings-updates-held-by-batch');
    // The desktop app's variant of the section, in both themes.
    await expectNoAxeBlockersInBothThemes(page, testInfo, 'settings-updates', {
      include: 'section[aria-labelledby="updates-heading"]',
      screenshot: (theme) =>
        section(page).screenshot({ path: testInfo.outputPath(`${theme}-settings-updates.png`) }),
    });
    expect(updater.calls.some((c) => c.startsWith('quitAndInstall'))).toBe(false);

    // Paused: the restart may go ahead.
    db.prepare("UPDATE batches SET state = 'paused' WHERE id = 'b-upd'").run();
    host.core.bus.emit('batch-progress', { ...progress, state: 'paused' });
    await expect(restart).toBeEnabled();
    await saveScreen(page, testInfo, 'settings-updates-ready');
    await restart.click();
    await expect.poll(() => updater.calls.at(-1)).toBe('quitAndInstall silent=false restart=true');
  } finally {
    await host.close();
  }
});
