import { expect, test } from '@test/support/e2e/fixtures';
import {
  connectLocalSandbox,
  expectWindowNotScrollable,
  settingsField,
  ui,
} from '@test/support/e2e/app';
import { saveScreen } from '@test/support/e2e/screens';
import type { Page } from '@playwright/test';

async function openSettings(page: Page) {
  await ui.sidebar(page).getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  await expect(page.getByRole('form', { name: 'Partner settings' })).toBeVisible();
}

const saveButton = (page: Page) => page.getByRole('button', { name: 'Save changes' });
const formStatus = (page: Page) =>
  page.getByRole('form', { name: 'Partner settings' }).locator('.form-status');
const webhookCard = (page: Page) => page.getByRole('region', { name: 'Webhook secret' });

test.beforeEach(async ({ app }) => {
  await connectLocalSandbox(app);
  await openSettings(app);
});

test('an invalid support email is refused on its field; a valid one is saved and kept', async ({
  app,
  host,
}, testInfo) => {
  const email = settingsField(app, 'Support email');
  await expect(email).toHaveValue('support@evergreen-clinic.example');

  await email.fill('not an email');
  await saveButton(app).click();
  await expect(email).toHaveAttribute('aria-invalid', 'true');
  await expect(email).toHaveAccessibleDescription(/email address/i);
  await expect(settingsField(app, 'Phone')).not.toHaveAttribute('aria-invalid', 'true');
  await saveScreen(app, testInfo, 'settings-invalid-email');
  // Nothing reached the server.
  expect((await host.core.session!.client.getPartnerSettings()).supportEmail).toBe(
    'support@evergreen-clinic.example',
  );

  await email.fill('help@evergreen-clinic.example');
  await saveButton(app).click();
  await expect(formStatus(app)).toHaveText(/Settings saved\./);
  await expect(email).not.toHaveAttribute('aria-invalid', 'true');
  expect((await host.core.session!.client.getPartnerSettings()).supportEmail).toBe(
    'help@evergreen-clinic.example',
  );

  await app.reload();
  await expect(settingsField(app, 'Support email')).toHaveValue('help@evergreen-clinic.example');
  await saveScreen(app, testInfo, 'settings-saved');
});

test('a webhook URL to a host that is not public is refused by the server, on its field', async ({
  app,
  host,
}, testInfo) => {
  const webhook = settingsField(app, 'Webhook URL');
  // The cloud metadata address, spelled as a number: a clean URL the form itself cannot fault.
  await webhook.fill('http://2852039166/latest/meta-data/');
  await saveButton(app).click();
  await expect(webhook).toHaveAttribute('aria-invalid', 'true');
  // The focus Save lost while it ran lands on the refused field, never on the page.
  await expect(webhook).toBeFocused();
  await expect(webhook).toHaveAccessibleDescription(/public host.*link-local/i);
  await expect(webhook).toHaveAccessibleDescription(/address of your webhook receiver/);
  await expect(webhook).not.toHaveAccessibleDescription(/--|flag/);
  await saveScreen(app, testInfo, 'settings-webhook-not-public');
  expect((await host.core.session!.client.getPartnerSettings()).webhookUrl).toBeNull();
  await expect(webhookCard(app)).toContainText('exists only while a webhook URL is set');

  await webhook.fill('https://clinic.example/webhooks/orders');
  await saveButton(app).click();
  await expect(formStatus(app)).toHaveText(/Settings saved\./);
  await expect(webhook).not.toHaveAttribute('aria-invalid', 'true');
});

test('a webhook URL brings a secret to reveal and rotate behind a confirmation', async ({
  app,
  host,
}, testInfo) => {
  await expect(webhookCard(app)).toContainText('exists only while a webhook URL is set');
  await settingsField(app, 'Webhook URL').fill('https://clinic.example/webhooks/orders');
  await saveButton(app).click();
  await expect(formStatus(app)).toHaveText(/Settings saved\./);

  const card = webhookCard(app);
  await expect(card.getByRole('img', { name: 'Webhook secret (hidden)' })).toBeVisible();
  await card.getByRole('button', { name: 'Reveal secret' }).click();
  const secretBox = card.getByRole('textbox', { name: 'Webhook secret' });
  await expect(secretBox).toHaveValue(/\S{16,}/);
  const first = await secretBox.inputValue();
  // The revealed secret's (visually hidden) label sits far down the screen: the window itself
  // must still not scroll, only the screen inside it.
  await expectWindowNotScrollable(app);
  const onServer = await host.core.session!.client.getPartnerSettings();
  expect(onServer.webhookUrl).toBe('https://clinic.example/webhooks/orders');
  await saveScreen(app, testInfo, 'settings-secret-revealed');

  // Cancel in the confirmation changes nothing.
  await card.getByRole('button', { name: 'Rotate secret…' }).click();
  const dialog = app.getByRole('alertdialog', { name: 'Rotate the webhook secret?' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await saveScreen(app, testInfo, 'settings-rotate-dialog', { fullPage: false });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(secretBox).toHaveValue(first);
  await card.getByRole('button', { name: 'Hide secret' }).click();
  await card.getByRole('button', { name: 'Reveal secret' }).click();
  await expect(secretBox).toHaveValue(first);
  expect(await host.core.session!.client.getWebhookSecret()).toBe(first);

  // Confirmed, the secret changes, and the new one is the one the server keeps.
  await card.getByRole('button', { name: 'Rotate secret…' }).click();
  await dialog.getByRole('button', { name: 'Rotate secret' }).click();
  await expect(dialog).toBeHidden();
  await expect(card).toContainText('New secret created');
  await expect(secretBox).not.toHaveValue(first);
  const rotated = await secretBox.inputValue();
  expect(rotated).toMatch(/\S{16,}/);
  expect(await host.core.session!.client.getWebhookSecret()).toBe(rotated);
  await app.reload();
  await webhookCard(app).getByRole('button', { name: 'Reveal secret' }).click();
  await expect(webhookCard(app).getByRole('textbox', { name: 'Webhook secret' })).toHaveValue(
    rotated,
  );
  await saveScreen(app, testInfo, 'settings-secret-rotated');
});

test('the theme choice applies at once and is remembered', async ({ app }, testInfo) => {
  const html = app.locator('html');
  await app.getByRole('radio', { name: 'Dark' }).check();
  await expect(html).toHaveAttribute('data-theme', 'dark');
  await saveScreen(app, testInfo, 'settings-dark');
  await app.reload();
  await expect(app.getByRole('radio', { name: 'Dark' })).toBeChecked();
  await expect(html).toHaveAttribute('data-theme', 'dark');
  await app.getByRole('radio', { name: 'Light' }).check();
  await expect(html).toHaveAttribute('data-theme', 'light');
});
