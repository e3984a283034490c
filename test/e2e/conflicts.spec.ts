import type { Page } from '@playwright/test';
import type { Protocol } from '@shared/api';
import { expect, test, type BrowserHost } from '@test/support/e2e/fixtures';
import { expectConnected, ui } from '@test/support/e2e/app';
import { expectNoAxeBlockersInBothThemes } from '@test/support/e2e/axe';
import { saveScreen } from '@test/support/e2e/screens';
import type { TestSandbox } from '@test/support/sandbox';
import {
  deleteOnServer,
  editOnServer,
  protocolRequest,
  serverProtocol,
  serverProtocols,
} from '@test/support/sync-harness';

/**
 * The conflicts view against a real partner sandbox: the server's copy is changed over HTTP (as
 * another desk would) while this app has a local change of the same protocol pending.
 */

/** Connects the host to the partner sandbox (as the Connect screen does) and waits for the shell. */
async function connectPartner(app: Page, host: BrowserHost, sandbox: TestSandbox) {
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
  await app.reload();
  await expectConnected(app, 'Clinic test server');
}

/** A protocol created here and synced: its local and server ids. */
async function synced(host: BrowserHost, name: string) {
  const session = host.core.session!;
  const { localId } = session.protocols.create(protocolRequest(name));
  await session.sync.syncNow();
  const row = host.core.store.protocols.get(localId)!;
  expect(row.syncState).toBe('synced');
  return { localId, serverId: row.serverId!, sourceId: `src-${name.toLowerCase()}` };
}

/** Syncs until the app has found this many conflicts (a local edit waits a moment to settle). */
async function syncUntilConflicts(host: BrowserHost, count: number) {
  await expect
    .poll(async () => {
      await host.core.session!.sync.syncNow();
      return host.core.session!.protocols.conflicts().length;
    })
    .toBe(count);
}

/** Edited here ("Mine…") and on the server ("Theirs…", 3 a day instead of 2). */
async function editedOnBothSides(host: BrowserHost, sandbox: TestSandbox, name: string) {
  const p = await synced(host, name);
  const theirs = await editOnServer(
    sandbox,
    p.serverId,
    protocolRequest(`Theirs${name}`, { sourceId: p.sourceId, quantity: 3 }),
  );
  host.core.session!.protocols.update(
    p.localId,
    protocolRequest(`Mine${name}`, { sourceId: p.sourceId }),
  );
  return { ...p, theirs };
}

const card = (app: Page, name: string) => app.getByRole('region', { name, exact: true });
const outcome = (app: Page) => app.locator('.conflicts-outcome[role="status"]');
const lastNames = (list: Protocol[]) => list.map((p) => p.customer.lastName).sort();

/** A row of a conflict's comparison table, by its field label. */
const row = (region: ReturnType<typeof card>, field: string | RegExp) =>
  region.getByRole('row', { name: field });

test('edited on both sides: keep mine, take theirs and keep both, each checked on the server', async ({
  app,
  host,
  partnerSandbox,
}, testInfo) => {
  await connectPartner(app, host, partnerSandbox);
  const a = await editedOnBothSides(host, partnerSandbox, 'Alpha');
  const b = await editedOnBothSides(host, partnerSandbox, 'Bravo');
  const c = await editedOnBothSides(host, partnerSandbox, 'Charlie');
  await syncUntilConflicts(host, 3);

  // The header and the sidebar say so; the header's link opens the view.
  const banner = ui.banner(app);
  await expect(banner.getByRole('link', { name: '3 conflicts to resolve' })).toBeVisible();
  await expect(app.getByTestId('conflicts-count')).toHaveText('3 to resolve');
  await banner.getByRole('link', { name: '3 conflicts to resolve' }).click();
  await expect(app.getByRole('heading', { level: 1, name: 'Conflicts' })).toBeVisible();
  expect(new URL(app.url()).hash).toBe('#/conflicts');

  // Mine and theirs side by side, field by field; what differs is marked, in words, each value
  // with its side (no base version is kept, so the view does not claim who changed it).
  const alpha = card(app, 'Ada MineAlpha');
  await expect(alpha).toBeVisible();
  await expect(alpha).toContainText('Changed here and on the server');
  await expect(alpha).toContainText('who changed a field cannot be told');
  const name = row(alpha, /^Name \(differs\)/);
  await expect(name).toHaveAttribute('data-differs', 'true');
  await expect(name.getByRole('rowheader')).toHaveText('Name (differs)');
  await expect(name.getByRole('cell')).toHaveText([
    'Mine: Ada MineAlpha',
    'Theirs: Ada TheirsAlpha',
  ]);
  const sourceId = row(alpha, /^Patient ID/);
  await expect(sourceId).not.toHaveAttribute('data-differs', 'true');
  await expect(sourceId.getByRole('cell')).toHaveText(['src-alpha', 'src-alpha']);
  await expect(row(alpha, /^Days supply/).getByRole('cell')).toHaveText(['30 days', '30 days']);
  // The pack product's doses: 2 a day here, 3 a day on the server.
  const pack = alpha.locator('tr[data-differs]', { hasText: 'morning' });
  await expect(pack.getByRole('cell').first()).toContainText('Mine: 2 a day: morning 2');
  await expect(pack.getByRole('cell').last()).toContainText('Theirs: 3 a day: morning 3');
  await expect(alpha).toContainText('2 fields differ');
  await expect(alpha.getByRole('button')).toHaveText(['Keep mine', 'Take theirs', 'Keep both']);
  // Only the fields that differ, on demand.
  await app.getByRole('checkbox', { name: 'Only the fields that differ' }).check();
  await expect(alpha.getByRole('row', { name: /^Patient ID/ })).toHaveCount(0);
  await expect(alpha.locator('tbody tr[data-differs]')).toHaveCount(2);
  await saveScreen(app, testInfo, 'conflicts-only-differences');
  await app.getByRole('checkbox', { name: 'Only the fields that differ' }).uncheck();
  await saveScreen(app, testInfo, 'conflicts-three');
  await expectNoAxeBlockersInBothThemes(app, testInfo, 'conflicts', { screenshot: true });

  // Keep mine asks first, naming what it overwrites on the server; Cancel changes nothing.
  await alpha.getByRole('button', { name: 'Keep mine' }).click();
  const confirm = app.getByRole('alertdialog', {
    name: "Replace the server's version of Ada MineAlpha?",
  });
  await expect(confirm).toBeVisible();
  await expect(confirm.getByRole('listitem')).toHaveText([
    'Name: "Ada TheirsAlpha" becomes "Ada MineAlpha"',
    /^\S.*: "3 a day: morning 3.*" becomes "2 a day: morning 2.*"$/,
  ]);
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await saveScreen(app, testInfo, 'conflicts-keep-mine-confirm');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await expect(alpha).toBeVisible();
  expect(host.core.store.protocols.get(a.localId)!.syncState).toBe('conflict');

  // Confirmed: the server gets my version.
  await alpha.getByRole('button', { name: 'Keep mine' }).click();
  await confirm.getByRole('button', { name: "Replace the server's version" }).click();
  await expect(outcome(app)).toContainText(
    "Kept yours: your version of Ada MineAlpha will replace the server's.",
  );
  await expect(alpha).toHaveCount(0);
  await expect(banner.getByRole('link', { name: '2 conflicts to resolve' })).toBeVisible();
  await saveScreen(app, testInfo, 'conflicts-kept-mine');

  // Take theirs: my edit is dropped, nothing is sent.
  await card(app, 'Ada MineBravo').getByRole('button', { name: 'Take theirs' }).click();
  await expect(outcome(app)).toContainText(
    "Took theirs: your changes to Ada MineBravo were discarded for the server's version.",
  );
  expect(host.core.store.protocols.get(b.localId)!.draft.customer.lastName).toBe('TheirsBravo');

  // Keep both: a copy of mine, with a link to it.
  await card(app, 'Ada MineCharlie').getByRole('button', { name: 'Keep both' }).click();
  await expect(outcome(app)).toContainText(
    "Kept both: Ada TheirsCharlie keeps the server's version, and your version (Ada MineCharlie) is a new protocol",
  );
  const copyLink = outcome(app).getByRole('link', { name: 'Open the copy' });
  await expect(copyLink).toBeVisible();
  await saveScreen(app, testInfo, 'conflicts-kept-both');

  // None left: the empty state, and the header and sidebar no longer count any.
  await expect(app.getByText('No conflicts', { exact: true })).toBeVisible();
  await expect(banner.getByRole('link', { name: /conflicts? to resolve/ })).toHaveCount(0);
  await expect(app.getByTestId('conflicts-count')).toHaveCount(0);
  await saveScreen(app, testInfo, 'conflicts-empty');
  await expectNoAxeBlockersInBothThemes(app, testInfo, 'conflicts-empty', { screenshot: true });

  // What the server holds after the next sync, read over HTTP.
  await host.core.session!.sync.syncNow();
  await expect
    .poll(async () => (await serverProtocol(partnerSandbox, a.serverId))?.customer.lastName)
    .toBe('MineAlpha');
  expect(await serverProtocol(partnerSandbox, b.serverId)).toEqual(b.theirs);
  expect(await serverProtocol(partnerSandbox, c.serverId)).toEqual(c.theirs);
  await expect
    .poll(async () => lastNames(await serverProtocols(partnerSandbox)))
    .toEqual(['MineAlpha', 'MineCharlie', 'TheirsBravo', 'TheirsCharlie']);

  // The copy's link opens it.
  const href = await copyLink.getAttribute('href');
  await copyLink.click();
  expect(new URL(app.url()).hash).toBe(href);
  const copyId = href!.replace('#/protocols/', '');
  expect(host.core.store.protocols.get(copyId)!.draft.customer.lastName).toBe('MineCharlie');
});

test('deleted on the server while edited here, and deleted here while edited on the server', async ({
  app,
  host,
  partnerSandbox,
}, testInfo) => {
  await connectPartner(app, host, partnerSandbox);
  // All three on the server first: a later sync would pull a server edit made before it.
  const gone = await synced(host, 'Delta');
  const echo = await synced(host, 'Echo');
  const foxtrot = await synced(host, 'Foxtrot');
  await deleteOnServer(partnerSandbox, gone.serverId);
  await deleteOnServer(partnerSandbox, foxtrot.serverId);
  const echoTheirs = await editOnServer(
    partnerSandbox,
    echo.serverId,
    protocolRequest('TheirsEcho', { sourceId: echo.sourceId }),
  );
  const protocols = host.core.session!.protocols;
  protocols.update(gone.localId, protocolRequest('MineDelta', { sourceId: gone.sourceId }));
  protocols.update(foxtrot.localId, protocolRequest('MineFoxtrot', { sourceId: foxtrot.sourceId }));
  expect(protocols.delete(echo.localId)).toBe('queued');
  await syncUntilConflicts(host, 3);

  await app.keyboard.press('Control+5');
  await expect(app.getByRole('heading', { level: 1, name: 'Conflicts' })).toBeVisible();

  // Deleted on the server: theirs is gone; keep mine or delete it here too.
  const delta = card(app, 'Ada MineDelta');
  await expect(delta).toContainText('Deleted on the server, changed here');
  await expect(row(delta, /^Name/).getByRole('cell')).toHaveText([
    'Ada MineDelta',
    'Deleted on the server',
  ]);
  await expect(delta.getByRole('button')).toHaveText(['Keep mine', 'Delete it here too']);

  // Deleted here, changed there: mine is gone; keep my delete or take theirs.
  const echoCard = card(app, 'Ada TheirsEcho');
  await expect(echoCard).toContainText('Deleted here, changed on the server');
  await expect(row(echoCard, /^Name/).getByRole('cell')).toHaveText([
    'Deleted here',
    'Ada TheirsEcho',
  ]);
  await expect(echoCard.getByRole('button')).toHaveText(['Keep my delete', 'Take theirs']);
  await saveScreen(app, testInfo, 'conflicts-deleted');
  await expectNoAxeBlockersInBothThemes(app, testInfo, 'conflicts-deleted', { screenshot: true });

  await delta.getByRole('button', { name: 'Keep mine' }).click();
  await expect(outcome(app)).toContainText(
    'Kept yours: Ada MineDelta will be created on the server again.',
  );
  await card(app, 'Ada MineFoxtrot').getByRole('button', { name: 'Delete it here too' }).click();
  await expect(outcome(app)).toContainText('Deleted Ada MineFoxtrot here too, as on the server.');
  expect(host.core.store.protocols.get(foxtrot.localId)).toBeNull();
  await echoCard.getByRole('button', { name: 'Take theirs' }).click();
  await expect(outcome(app)).toContainText("Restored Ada TheirsEcho with the server's changes.");
  await expect(app.getByText('No conflicts', { exact: true })).toBeVisible();
  await saveScreen(app, testInfo, 'conflicts-deleted-resolved');

  await host.core.session!.sync.syncNow();
  await expect
    .poll(async () => lastNames(await serverProtocols(partnerSandbox)))
    .toEqual(['MineDelta', 'TheirsEcho']);
  expect(await serverProtocol(partnerSandbox, echo.serverId)).toEqual(echoTheirs);
  expect(host.core.store.protocols.get(echo.localId)).toMatchObject({ deleted: false });
});
