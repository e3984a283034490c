import { createServer } from 'node:net';
import { expect, test } from '@test/support/e2e/fixtures';
import {
  expectConnected,
  expectFirstRunConnect,
  expectProductsListed,
  fillPartnerForm,
  partnerForm,
  ui,
} from '@test/support/e2e/app';
import { keychainAccounts } from '@test/support/e2e/keychain-probe';
import { saveScreen } from '@test/support/e2e/screens';

/** A loopback port nobody listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

test('a wrong secret is refused clearly and nothing is saved; the right one connects', async ({
  app,
  host,
  partnerSandbox,
  keychainService,
}, testInfo) => {
  await expectFirstRunConnect(app);
  const target = {
    baseUrl: partnerSandbox.baseUrl,
    authUrl: partnerSandbox.authUrl,
    clientId: partnerSandbox.clientId,
    clientSecret: 'not-the-right-secret',
  };
  await fillPartnerForm(app, target);
  const form = partnerForm(app);
  const alert = form.getByRole('alert');

  await form.getByRole('button', { name: 'Test connection' }).click();
  await expect(alert).toContainText('The server refused the client ID or client secret.');
  await expect(alert).not.toContainText('not-the-right-secret');

  await form.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(alert).toContainText('The server refused the client ID or client secret.');
  await saveScreen(app, testInfo, 'connect-wrong-secret');
  // Still on the first-run screen, and nothing kept: no connection, no secret in the keychain.
  await expect(ui.sidebar(app)).toHaveCount(0);
  expect(host.core.listConnections()).toEqual([]);
  expect(await keychainAccounts(keychainService)).toEqual([]);

  // The right secret: the test says so, then Connect saves and opens the catalog.
  await form.getByLabel('Client secret', { exact: true }).fill(partnerSandbox.clientSecret);
  await form.getByRole('button', { name: 'Test connection' }).click();
  await expect(form.getByRole('status')).toContainText(
    'Connection works: partner Evergreen Integrative Clinic.',
  );
  await expect(alert).toHaveCount(0);
  // The success was said of the values tested: changing one takes it back.
  const label = form.getByLabel('Label', { exact: true });
  await label.fill('Clinic test');
  await expect(form.getByText('Connection works')).toHaveCount(0);
  await label.fill('Clinic test server');
  await form.getByRole('button', { name: 'Connect', exact: true }).click();
  await expectConnected(app, 'Clinic test server');
  await expect(ui.banner(app)).toContainText('Partner sandbox');
  await expectProductsListed(app);
  await saveScreen(app, testInfo, 'catalog-partner-sandbox');

  const saved = host.core.listConnections();
  expect(saved).toHaveLength(1);
  expect(saved[0]).toMatchObject({
    kind: 'partner-sandbox',
    label: 'Clinic test server',
    baseUrl: partnerSandbox.baseUrl,
    clientId: partnerSandbox.clientId,
  });
  // The secret went to the keychain (one account), not to the local database.
  expect(await keychainAccounts(keychainService)).toHaveLength(1);
});

test('an unreachable server is reported as such and nothing is saved', async ({
  app,
  host,
  keychainService,
}, testInfo) => {
  await expectFirstRunConnect(app);
  const port = await closedPort();
  await fillPartnerForm(app, {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    authUrl: `http://127.0.0.1:${port}`,
    clientId: 'demo-clinic',
    clientSecret: 'any-secret-at-all',
  });
  const form = partnerForm(app);
  await form.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(form.getByRole('alert')).toContainText(
    'The server could not be reached. Check the address and your network connection.',
  );
  await saveScreen(app, testInfo, 'connect-unreachable');
  await expect(ui.sidebar(app)).toHaveCount(0);
  expect(host.core.listConnections()).toEqual([]);
  expect(await keychainAccounts(keychainService)).toEqual([]);
});

test('the form checks its fields before anything is sent', async ({ app, host }) => {
  await expectFirstRunConnect(app);
  await app.getByRole('radio', { name: 'Partner sandbox' }).check();
  const form = partnerForm(app);
  await form.getByLabel('Base URL', { exact: true }).fill('http://partner.example/v1');
  await form.getByRole('button', { name: 'Connect', exact: true }).click();
  const baseUrl = form.getByLabel('Base URL', { exact: true });
  await expect(baseUrl).toHaveAttribute('aria-invalid', 'true');
  await expect(baseUrl).toHaveAccessibleDescription(/https/);
  await expect(form.getByLabel('Client secret', { exact: true })).toHaveAccessibleDescription(
    /Required/,
  );
  expect(host.core.listConnections()).toEqual([]);
});
