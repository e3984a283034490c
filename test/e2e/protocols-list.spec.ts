import type { Page } from '@playwright/test';
import { expect, test } from '@test/support/e2e/fixtures';
import { expectProductsListed, ui } from '@test/support/e2e/app';
import { axeBlockers } from '@test/support/e2e/axe';
import { connectPartner } from '@test/support/e2e/batches';
import {
  PATIENTS,
  connectToProtocols,
  draftLocally,
  expectSettled,
  fullName,
  namesByName,
  openProtocols,
  patientDraft,
  protocolsUi as list,
} from '@test/support/e2e/protocols';
import { saveScreen } from '@test/support/e2e/screens';

/** The hash route the page is on ("/protocols", "/batches/review"). */
const route = (page: Page) => new URL(page.url()).hash.replace(/^#/, '');

test('protocols from this computer and from the server show up; search, sort and the empty states', async ({
  app,
  host,
}, testInfo) => {
  await connectToProtocols(app);
  await expect(app.getByText('No protocols yet.')).toBeVisible();
  await expect(app.getByRole('link', { name: 'New protocol' })).toHaveCount(2);
  await saveScreen(app, testInfo, 'protocols-empty');

  // Twelve drafted here, and one made on the server by someone else, pulled by Sync now.
  draftLocally(host, PATIENTS.keys());
  const remote = await host.core.session!.client.createProtocol(
    patientDraft(0, {
      customer: {
        ...patientDraft(0).customer,
        sourceId: 'EXT-777',
        firstName: 'Hedy',
        lastName: 'Lamarr',
        email: 'hedy@films.example',
      },
    }),
  );
  await ui.banner(app).getByRole('button', { name: 'Sync now' }).click();
  await expect(list.row(app, 'Hedy Lamarr')).toBeVisible();
  await expect(list.count(app)).toHaveText('13 protocols');
  await expect(list.rows(app)).toHaveCount(13);
  await expect(list.row(app, 'Hedy Lamarr')).toContainText('EXT-777 · hedy@films.example');
  expect(remote.id).toBeTruthy();
  await saveScreen(app, testInfo, 'protocols-list');

  // Last change first (the default): the pulled one came last.
  expect((await list.names(app))[0]).toBe('Hedy Lamarr');

  // By name: last name, then first name.
  await list.sortBy(app, 'Patient');
  await expectSettled(app);
  const byName = namesByName(PATIENTS.keys());
  byName.splice(byName.indexOf('Barbara Liskov'), 0, 'Hedy Lamarr'); // lamarr < liskov
  await expect.poll(() => list.names(app)).toEqual(byName);
  await saveScreen(app, testInfo, 'protocols-sorted-by-name');

  // Search by a word of the name, by sourceId, by email; every word must match.
  await list.search(app).fill('hopper');
  await expectSettled(app);
  await expect.poll(() => list.names(app)).toEqual(['Grace Hopper']);
  await expect(list.count(app)).toHaveText('1 protocol match');
  await list.search(app).fill('PAT-01003');
  await expect.poll(() => list.names(app)).toEqual([fullName(3)]);
  await list.search(app).fill('films.example');
  await expect.poll(() => list.names(app)).toEqual(['Hedy Lamarr']);
  await list.search(app).fill('ada lovelace');
  await expect.poll(() => list.names(app)).toEqual(['Ada Lovelace']);
  await saveScreen(app, testInfo, 'protocols-search');

  // The input takes no more than the contract does.
  await expect(list.search(app)).toHaveAttribute('maxlength', '200');
  await list.search(app).fill('x'.repeat(250));
  await expect(list.search(app)).toHaveValue('x'.repeat(200));

  await list.search(app).fill('nobody by this name');
  await expect(app.getByText('No protocols match the search and filters.')).toBeVisible();
  await expect(list.count(app)).toHaveText('0 protocols match');
  await saveScreen(app, testInfo, 'protocols-no-match');
  await app.getByRole('button', { name: 'Clear search and filters' }).click();
  await expect(list.search(app)).toHaveValue('');
  await expect(list.rows(app)).toHaveCount(13);

  // A row opens its editor; New protocol and New order go to theirs.
  const target = host.core.store.protocols.search('Turing')[0]!;
  await list
    .row(app, 'Alan Turing')
    .getByRole('link', { name: /Alan Turing/ })
    .click();
  expect(route(app)).toBe(`/protocols/${target.localId}`);
  await app.goBack();
  await app.getByRole('link', { name: 'New order' }).click();
  expect(route(app)).toBe('/new-order');
  await app.goBack();
  await app.getByRole('main').getByRole('link', { name: 'New protocol' }).first().click();
  expect(route(app)).toBe('/protocols/new');
});

test('with the server unreachable, drafts show as pending, the filter finds them, and the badges follow the outbox live', async ({
  app,
  host,
  partnerSandbox,
}, testInfo) => {
  await connectPartner(app, partnerSandbox);
  await expectProductsListed(app);

  // Two synced protocols first.
  draftLocally(host, [0, 1]);
  await host.core.session!.sync.syncNow();
  await openProtocols(app);
  await expect(list.rows(app)).toHaveCount(2);
  await expect(list.list(app).getByText('Pending sync')).toHaveCount(0);

  // The server goes away; what is drafted now waits, and the list says so without a reload.
  await partnerSandbox.close();
  await ui.banner(app).getByRole('button', { name: 'Sync now' }).click();
  await expect(ui.banner(app).getByText('Offline', { exact: true })).toBeVisible();
  draftLocally(host, [2, 3, 4]);
  await expect(list.rows(app)).toHaveCount(5);
  for (const i of [2, 3, 4])
    await expect(list.row(app, fullName(i)).getByText('Pending sync')).toBeVisible();
  await expect(list.row(app, fullName(0)).getByText('Pending sync')).toHaveCount(0);
  await saveScreen(app, testInfo, 'protocols-pending-offline');

  // An edit of a synced protocol is pending too.
  const ada = host.core.store.protocols.search('Lovelace')[0]!;
  host.core.session!.protocols.update(ada.localId, patientDraft(0, { daysSupply: 60 }));
  await expect(list.row(app, 'Ada Lovelace').getByText('Pending sync')).toBeVisible();

  await list.filter(app, 'Pending sync').check();
  await expectSettled(app);
  await expect
    .poll(() => list.names(app).then((n) => n.sort()))
    .toEqual([fullName(0), fullName(2), fullName(3), fullName(4)].sort());
  await expect(list.count(app)).toHaveText('4 protocols match');
  await saveScreen(app, testInfo, 'protocols-filter-pending');

  await list.filter(app, 'Conflict').check();
  await list.filter(app, 'Pending sync').uncheck();
  await expect(app.getByText('No protocols match the search and filters.')).toBeVisible();
  await list.filter(app, 'Conflict').uncheck();
  await list.filter(app, 'In doubt').check();
  await expect(app.getByText('No protocols match the search and filters.')).toBeVisible();
  await list.filter(app, 'In doubt').uncheck();
  await expect(list.rows(app)).toHaveCount(5);
});

test('a create whose answer was lost is in doubt until the server is read, and the badge says so', async ({
  app,
  host,
  partnerSandbox,
}, testInfo) => {
  test.setTimeout(120_000);
  await connectPartner(app, partnerSandbox);
  await openProtocols(app);

  // Every answer under /v1/protocols is lost after the server acted: the create is in doubt, and
  // so is the read that would settle it.
  const faults = await partnerSandbox.api('PUT', '/_sandbox/faults', {
    dropResponseRate: 1,
    match: { path: '/v1/protocols' },
  });
  expect(faults.status).toBe(200);
  const [localId] = draftLocally(host, [7]);
  const row = list.row(app, fullName(7));
  // Sync now sends it (the background run may be a minute away); the row follows by itself.
  await expect
    .poll(
      async () => {
        await host.core.session!.sync.syncNow().catch(() => undefined);
        return row.getByText('In doubt', { exact: true }).count();
      },
      { timeout: 30_000 },
    )
    .toBe(1);
  await expect(row).toContainText(/In doubt: .+/);
  await list.filter(app, 'In doubt').check();
  await expect.poll(() => list.names(app)).toEqual([fullName(7)]);
  await saveScreen(app, testInfo, 'protocols-in-doubt');

  // The server answers again: the check finds the protocol made, and the badge goes by itself.
  // The check waits out the runner's grace for a job in doubt (30 s for protocols, counted from
  // when it became in doubt), so allow that grace and a reconcile round after it.
  await partnerSandbox.api('DELETE', '/_sandbox/faults');
  await list.filter(app, 'In doubt').uncheck();
  await expect
    .poll(
      async () => {
        await host.core.session!.sync.syncNow().catch(() => undefined);
        return host.core.store.protocols.get(localId!)!.syncState;
      },
      { timeout: 60_000 },
    )
    .toBe('synced');
  await expect(row.getByText('In doubt', { exact: true })).toHaveCount(0);
  await expect(row.locator('.badge')).toHaveCount(0);
  const onServer = await partnerSandbox.api('GET', '/v1/protocols?limit=100');
  expect(JSON.stringify(onServer.body)).toContain('PAT-01007');
});

test('a protocol changed on the server and here shows a conflict that links to the conflicts view', async ({
  app,
  host,
}, testInfo) => {
  await connectToProtocols(app);
  const [localId] = draftLocally(host, [5]);
  draftLocally(host, [6]);
  const session = host.core.session!;
  await session.sync.syncNow();
  const synced = host.core.store.protocols.get(localId!)!;
  expect(synced.serverId).toBeTruthy();
  await session.client.replaceProtocol(synced.serverId!, patientDraft(5, { daysSupply: 90 }));
  session.protocols.update(localId!, patientDraft(5, { daysSupply: 60 }));
  await openProtocols(app);
  await expect
    .poll(
      async () => {
        await session.sync.syncNow();
        return host.core.store.protocols.get(localId!)!.syncState;
      },
      { timeout: 15_000 },
    )
    .toBe('conflict');
  const row = list.row(app, fullName(5));
  const badge = row.getByRole('link', { name: /^Conflict/ });
  await expect(badge).toBeVisible();
  await expect(badge).toHaveAccessibleName(/^Conflict: .+\(resolve\)$/);
  await list.filter(app, 'Conflict').check();
  await expect.poll(() => list.names(app)).toEqual([fullName(5)]);
  await saveScreen(app, testInfo, 'protocols-conflict');
  await badge.click();
  expect(route(app)).toBe('/conflicts');
});

test('selection: shift-click ranges, select all matching, kept across searches, and the hand-off to the batch review', async ({
  app,
  host,
}, testInfo) => {
  await connectToProtocols(app);
  draftLocally(
    host,
    Array.from({ length: 30 }, (_, i) => i),
  );
  await openProtocols(app);
  await list.sortBy(app, 'Patient');
  await expectSettled(app);
  await expect(list.count(app)).toHaveText('30 protocols');
  const names = namesByName(Array.from({ length: 30 }, (_, i) => i));
  await expect.poll(async () => (await list.names(app)).slice(0, 5)).toEqual(names.slice(0, 5));
  const selection = list.selection(app);
  await expect(selection).toContainText('No protocol selected');
  await expect(selection.getByRole('button', { name: /^Review batch/ })).toBeDisabled();

  // A click, then a shift-click four rows down: five selected.
  await list.checkbox(app, names[1]!).click();
  await list.checkbox(app, names[5]!).click({ modifiers: ['Shift'] });
  for (const i of [1, 2, 3, 4, 5]) await expect(list.checkbox(app, names[i]!)).toBeChecked();
  await expect(list.checkbox(app, names[0]!)).not.toBeChecked();
  await expect(list.checkbox(app, names[6]!)).not.toBeChecked();
  await expect(selection).toContainText('5 selected');
  // A shift-click on a row (not its checkbox) extends too, and does not open it.
  await list
    .row(app, names[8]!)
    .getByRole('link')
    .first()
    .click({ modifiers: ['Shift'] });
  expect(route(app)).toBe('/protocols');
  await expect(selection).toContainText('8 selected');
  await saveScreen(app, testInfo, 'protocols-range-selected');

  // The selection stays when the search leaves some of them out, and says so.
  await list.search(app).fill(PATIENTS[0]![1]); // Lovelace: rows 0, 12, 24 of the patients
  await expectSettled(app);
  await expect(list.count(app)).toHaveText('3 protocols match');
  await expect(selection).toContainText('8 selected');
  await expect(selection).toContainText('all are hidden by the search or filters, still selected');
  await saveScreen(app, testInfo, 'protocols-selection-hidden');

  // Select all matching adds the three; clearing the search shows everything still selected.
  await selection.getByRole('button', { name: 'Select all 3 matching' }).click();
  const lovelaces = await list.names(app);
  for (const n of lovelaces) await expect(list.checkbox(app, n)).toBeChecked();
  const expected = new Set([...names.slice(1, 9), ...lovelaces]).size;
  await expect(selection).toContainText(`${expected} selected`);
  await list.search(app).fill('');
  await expectSettled(app);
  await expect(selection).not.toContainText('hidden');
  await selection.getByRole('button', { name: 'Select all 30' }).click();
  await expect(selection).toContainText('30 selected');
  await expect(selection.getByRole('button', { name: 'Select all 30' })).toBeDisabled();

  // Scrolling loads nothing away: the last row is selected too.
  await list
    .list(app)
    .locator('..')
    .evaluate((el) => el.scrollTo(0, el.scrollHeight));
  await expect(list.checkbox(app, names[29]!)).toBeChecked();

  await selection.getByRole('button', { name: 'Clear selection' }).click();
  await expect(selection).toContainText('No protocol selected');
  await list.checkbox(app, names[29]!).click();
  await list.checkbox(app, names[27]!).click({ modifiers: ['Shift'] });
  await expect(selection).toContainText('3 selected');
  await selection.getByRole('button', { name: 'Review batch (3)' }).click();
  await expect.poll(() => route(app)).toBe('/batches/review');
  // The review has exactly the three chosen.
  await expect(app.getByRole('heading', { level: 1, name: 'Review the batch' })).toBeVisible();
  await expect(app.getByTestId('review-included')).toHaveText('3');
  await expect(app.getByTestId('review-left-out')).toHaveText('0');
  const included = app.getByRole('region', { name: 'Orders to send' });
  for (const n of names.slice(27)) await expect(included).toContainText(n);
  await saveScreen(app, testInfo, 'protocols-review-handoff');

  // Back to the list: the selection is still there until a batch is made of it.
  await app.getByRole('link', { name: 'Back to the protocols' }).click();
  await expect(selection).toContainText('3 selected');
  await selection.getByRole('button', { name: 'Review batch (3)' }).click();
  await app.getByRole('button', { name: 'Submit 3 orders…' }).click();
  await app.getByRole('button', { name: 'Send 3 orders', exact: true }).click();
  await expect.poll(() => route(app)).toMatch(/^\/batches\/(?!review)[^/]+$/);
  await openProtocols(app);
  await expect(selection).toContainText('No protocol selected');
});

test('keyboard only: Tab into the list, arrows, Space and Shift+Space select, Enter opens', async ({
  app,
  host,
}, testInfo) => {
  await connectToProtocols(app);
  draftLocally(
    host,
    Array.from({ length: 12 }, (_, i) => i),
  );
  await openProtocols(app);
  await list.sortBy(app, 'Patient');
  await expectSettled(app);
  const names = namesByName(Array.from({ length: 12 }, (_, i) => i));
  await expect.poll(() => list.names(app)).toEqual(names);
  await list.search(app).focus();

  // Tab from the search reaches the list: one row in the Tab order, its checkbox first.
  let inList = false;
  for (let i = 0; i < 20 && !inList; i++) {
    await app.keyboard.press('Tab');
    inList = await app.evaluate(
      () =>
        !!(
          globalThis as unknown as { document: { activeElement: { closest(s: string): unknown } } }
        ).document.activeElement?.closest('ul[aria-label="Protocols"]'),
    );
  }
  expect(inList).toBe(true);
  await expect(list.checkbox(app, names[0]!)).toBeFocused();

  await app.keyboard.press('ArrowDown');
  await app.keyboard.press('ArrowDown');
  await expect(list.checkbox(app, names[2]!)).toBeFocused();
  await app.keyboard.press('Space');
  await expect(list.checkbox(app, names[2]!)).toBeChecked();
  await app.keyboard.press('ArrowDown');
  await app.keyboard.press('ArrowDown');
  await app.keyboard.press('Shift+Space');
  for (const i of [2, 3, 4]) await expect(list.checkbox(app, names[i]!)).toBeChecked();
  await expect(list.checkbox(app, names[5]!)).not.toBeChecked();
  await app.keyboard.press('Space'); // toggles this one off again
  await expect(list.checkbox(app, names[4]!)).not.toBeChecked();
  await expect(list.selection(app)).toContainText('2 selected');
  await saveScreen(app, testInfo, 'protocols-keyboard');

  // Tab moves to the row's link; arrows keep to links; Space there toggles as well.
  await app.keyboard.press('Tab');
  const link = (i: number) => list.row(app, names[i]!).getByRole('link').first();
  await expect(link(4)).toBeFocused();
  await app.keyboard.press('ArrowUp');
  await expect(link(3)).toBeFocused();
  await app.keyboard.press('Space');
  await expect(list.checkbox(app, names[3]!)).not.toBeChecked();
  await app.keyboard.press('End');
  await expect(link(11)).toBeFocused();
  await app.keyboard.press('Home');
  await expect(link(0)).toBeFocused();
  await app.keyboard.press('ArrowDown');
  await app.keyboard.press('Enter');
  const opened = host.core.store.protocols.search(names[1]!.split(' ')[1]!)[0]!;
  await expect.poll(() => route(app)).toBe(`/protocols/${opened.localId}`);

  // Back in the list, Enter on a checkbox opens the row too.
  await app.goBack();
  await expectSettled(app);
  await list.checkbox(app, names[6]!).focus();
  await app.keyboard.press('Enter');
  await expect.poll(() => route(app)).toMatch(/^\/protocols\/[0-9a-f-]{36}$/);
});

for (const theme of ['light', 'dark'] as const) {
  test(`the protocol list has no serious or critical axe violations, ${theme} theme`, async ({
    page,
    host,
  }, testInfo) => {
    await page.emulateMedia({ colorScheme: theme });
    await page.goto(host.url);
    await connectToProtocols(page);
    await expect(page.getByText('No protocols yet.')).toBeVisible();
    const blockers: Record<string, string[]> = {};
    const check = async (screen: string) => {
      await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
      await saveScreen(page, testInfo, `${theme}-${screen}`);
      blockers[screen] = (await axeBlockers(page, testInfo, `${theme}-${screen}`)).map(
        (f) => `${f.impact} ${f.id}: ${f.help} (${f.targets.join(', ')})`,
      );
    };
    await check('protocols-empty');

    // Synced, pending, selected and a conflict, side by side.
    const [conflicted] = draftLocally(host, [0, 1, 2]);
    await host.core.session!.sync.syncNow();
    const p = host.core.store.protocols.get(conflicted!)!;
    await host.core.session!.client.replaceProtocol(
      p.serverId!,
      patientDraft(0, { daysSupply: 90 }),
    );
    host.core.session!.protocols.update(conflicted!, patientDraft(0, { daysSupply: 60 }));
    await expect
      .poll(async () => {
        await host.core.session!.sync.syncNow();
        return host.core.store.protocols.get(conflicted!)!.syncState;
      })
      .toBe('conflict');
    draftLocally(host, [3, 4]);
    await expect(list.rows(page)).toHaveCount(5);
    await expect(list.list(page).getByRole('link', { name: /^Conflict/ })).toBeVisible();
    await list.checkbox(page, fullName(1)).click();
    await list.checkbox(page, fullName(2)).click();
    await check('protocols-list');

    await list.search(page).fill('nobody here');
    await expect(page.getByText('No protocols match the search and filters.')).toBeVisible();
    await check('protocols-no-match');

    for (const [screen, found] of Object.entries(blockers))
      expect.soft(found, `serious or critical axe violations on ${screen} (${theme})`).toEqual([]);
  });
}
