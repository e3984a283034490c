import type { Page } from '@playwright/test';
import type { Protocol } from '@shared/api';
import { protocolsCsv } from '@main/csv/protocol-export';
import { protocolFor } from '@test/support/bulk';
import { expect, test, type BrowserHost } from '@test/support/e2e/fixtures';
import { connectPartner, seedProtocol } from '@test/support/e2e/batches';
import { editor, goTo, ipc } from '@test/support/e2e/editor';
import { protocolsUi as list } from '@test/support/e2e/protocols';
import { startTestSandbox, type TestSandbox } from '@test/support/sandbox';
import { editOnServer } from '@test/support/sync-harness';

const toasts = (page: Page) => page.getByRole('region', { name: 'Notifications' });

/** The partner server's protocols whose customer name matches `search` (its own API). */
async function serverProtocols(sandbox: TestSandbox, search: string): Promise<Protocol[]> {
  const res = await sandbox.api<{ protocols: Protocol[] }>(
    'GET',
    `/v1/protocols?limit=100&search=${encodeURIComponent(search)}`,
  );
  expect(res.status).toBe(200);
  return res.body.protocols;
}

/** Sync now, until nothing waits to be sent. */
async function syncAll(app: Page): Promise<void> {
  await expect
    .poll(
      async () => {
        await ipc(app, 'sync.now', {});
        return app.getByTestId('unsynced-count').textContent();
      },
      { timeout: 30_000 },
    )
    .toMatch(/^All changes synced/);
}

/** Ctrl+Z with the focus outside any text field (on the screen's heading). */
async function pressUndo(app: Page): Promise<void> {
  await app.getByRole('heading', { level: 1 }).click();
  await app.keyboard.press('Control+z');
}

test('undo of an edit already on the server: the draft, the list and the server go back', async ({
  app,
  host,
  partnerSandbox,
}) => {
  await connectPartner(app, partnerSandbox);
  const localId = seedProtocol(host, protocolFor('UNDO-EDIT'));
  await syncAll(app);
  await goTo(app, `#/protocols/${localId}`);
  const lastName = editor.field(app, 'Last name');
  await expect(lastName).toHaveValue('Patient UNDO-EDIT');
  await lastName.fill('Edited UNDO-EDIT');
  // In a text field Ctrl+Z is the field's own: nothing saved is undone.
  await app.keyboard.press('Control+z');
  await lastName.fill('Edited UNDO-EDIT');
  await editor.save(app).click();
  await expect(
    toasts(app).getByRole('status').filter({ hasText: 'Protocol saved.' }),
  ).toBeVisible();
  await syncAll(app);
  const [edited] = await serverProtocols(partnerSandbox, 'UNDO-EDIT');
  expect(edited?.customer.lastName).toBe('Edited UNDO-EDIT');

  await pressUndo(app);
  await expect(
    toasts(app)
      .getByRole('status')
      .filter({ hasText: 'Undone: Edit of the protocol for Ada Edited UNDO-EDIT.' }),
  ).toBeVisible();
  // The form follows the protocol, which is as it was before the edit.
  await expect(lastName).toHaveValue('Patient UNDO-EDIT');
  await syncAll(app);
  const back = await serverProtocols(partnerSandbox, 'UNDO-EDIT');
  expect(back.map((p) => [p.id, p.customer.lastName])).toEqual([[edited!.id, 'Patient UNDO-EDIT']]);
  await app.keyboard.press('Control+1');
  await expect(list.row(app, 'Ada Patient UNDO-EDIT')).toHaveCount(1);
  await expect(list.row(app, 'Ada Edited UNDO-EDIT')).toHaveCount(0);

  // Redo, from the toast that said what was undone.
  await goTo(app, `#/protocols/${localId}`);
  await pressUndo(app);
  await expect(toasts(app)).toContainText('Undone: New protocol for Ada Patient UNDO-EDIT.');
  await toasts(app).getByRole('button', { name: 'Redo' }).click();
  await expect(toasts(app)).toContainText('Redone: New protocol for Ada Patient UNDO-EDIT.');
});

test('undo of a delete already sent makes the protocol again on the server, as a new create', async ({
  app,
  host,
  partnerSandbox,
}) => {
  await connectPartner(app, partnerSandbox);
  // Sent: on the server before it is deleted.
  const sent = seedProtocol(host, protocolFor('UNDO-SENT'));
  await syncAll(app);
  const [onServer] = await serverProtocols(partnerSandbox, 'UNDO-SENT');
  expect(onServer).toBeDefined();

  await goTo(app, `#/protocols/${sent}`);
  await app.getByRole('button', { name: 'Delete' }).click();
  const deleted = toasts(app).getByRole('status').filter({ hasText: 'Deleted the protocol for' });
  await expect(deleted).toBeVisible();
  // The delete goes to main when its Undo window ends, then to the server.
  await expect(deleted).toBeHidden({ timeout: 15_000 });
  await syncAll(app);
  expect(await serverProtocols(partnerSandbox, 'UNDO-SENT')).toEqual([]);
  await pressUndo(app);
  await expect(toasts(app)).toContainText(
    'Undone: Delete of the protocol for Ada Patient UNDO-SENT.',
  );
  await expect(list.row(app, 'Ada Patient UNDO-SENT')).toHaveCount(1);
  await syncAll(app);
  const remade = await serverProtocols(partnerSandbox, 'UNDO-SENT');
  expect(remade).toHaveLength(1);
  expect(remade[0]!.id).not.toBe(onServer!.id);
  expect(remade[0]!.lineItems.map((li) => li.productId)).toEqual(
    onServer!.lineItems.map((li) => li.productId),
  );
});

test('undo of a delete never sent drafts the protocol again, and it reaches the server once back', async ({
  app,
  host,
  partnerSandbox,
}) => {
  await connectPartner(app, partnerSandbox);
  const port = partnerSandbox.port;
  // Offline: the new protocol waits on this computer, never sent.
  await partnerSandbox.close();
  const unsent = seedProtocol(host, protocolFor('UNDO-UNSENT'));
  await goTo(app, `#/protocols/${unsent}`);
  await expect(editor.field(app, 'Last name')).toHaveValue('Patient UNDO-UNSENT');
  await app.getByRole('button', { name: 'Delete' }).click();
  const deleted = toasts(app).getByRole('status').filter({ hasText: 'Deleted the protocol for' });
  await expect(deleted).toBeVisible();
  await expect(deleted).toBeHidden({ timeout: 15_000 });
  // Never sent, the delete simply dropped it.
  await expect.poll(() => host.core.store.protocols.get(unsent), { timeout: 15_000 }).toBeNull();
  await pressUndo(app);
  await expect(toasts(app)).toContainText(
    'Undone: Delete of the protocol for Ada Patient UNDO-UNSENT.',
  );
  await expect(list.row(app, 'Ada Patient UNDO-UNSENT')).toHaveCount(1);

  const back = await startTestSandbox({ port });
  try {
    await syncAll(app);
    const created = await serverProtocols(back, 'UNDO-UNSENT');
    expect(created.map((p) => p.customer.sourceId)).toEqual(['UNDO-UNSENT']);
  } finally {
    await back.close();
  }
});

test('undo of an import takes every protocol of the file back in one step, on the server too', async ({
  app,
  partnerSandbox,
}) => {
  await connectPartner(app, partnerSandbox);
  // The file as the app's own export writes it; product names are left blank (the ids are read).
  const csv = protocolsCsv(
    ['UNDO-IMP-1', 'UNDO-IMP-2', 'UNDO-IMP-3'].map((id) => protocolFor(id)),
    () => undefined,
  );
  await goTo(app, '#/protocols/import');
  await app.getByLabel('Choose a CSV file…').setInputFiles({
    name: 'undo.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(csv, 'utf8'),
  });
  await expect(app.getByTestId('import-ready')).toHaveText('3');
  await app.getByRole('button', { name: /^Import 3 protocols/ }).click();
  const imported = toasts(app)
    .getByRole('status')
    .filter({ hasText: '3 protocols imported as drafts' });
  await expect(imported).toBeVisible();
  await syncAll(app);
  expect(await serverProtocols(partnerSandbox, 'UNDO-IMP')).toHaveLength(3);

  await imported.getByRole('button', { name: 'Undo' }).click();
  await expect(toasts(app)).toContainText('Undone: Import of 3 protocols.');
  await expect(list.row(app, 'UNDO-IMP')).toHaveCount(0);
  await syncAll(app);
  expect(await serverProtocols(partnerSandbox, 'UNDO-IMP')).toEqual([]);
});

/**
 * A protocol (patient last name `tag`) synced, then edited on the server by another desk
 * ("Theirs <tag>") while this one edits it here ("Mine <tag>"): the sync finds the conflict.
 */
async function editedOnBothSides(
  app: Page,
  host: BrowserHost,
  partnerSandbox: TestSandbox,
  tag: string,
) {
  const session = host.core.session!;
  const named = (lastName: string) => ({
    ...protocolFor(tag),
    customer: { ...protocolFor(tag).customer, lastName },
  });
  const localId = seedProtocol(host, protocolFor(tag));
  await syncAll(app);
  const serverId = host.core.store.protocols.get(localId)!.serverId!;
  await editOnServer(partnerSandbox, serverId, named(`Theirs ${tag}`));
  session.protocols.update(localId, named(`Mine ${tag}`));
  await expect
    .poll(async () => {
      await session.sync.syncNow();
      return session.protocols.conflicts().length;
    })
    .toBe(1);
  return { session, localId, serverId };
}

test('undo of a conflict resolution: theirs taken, then mine again, sent on the server’s version', async ({
  app,
  host,
  partnerSandbox,
}) => {
  await connectPartner(app, partnerSandbox);
  const { session, serverId } = await editedOnBothSides(app, host, partnerSandbox, 'UNDO-CONFLICT');

  await goTo(app, '#/conflicts');
  const conflict = app.getByRole('region', { name: 'Ada Mine UNDO-CONFLICT', exact: true });
  await conflict.getByRole('button', { name: 'Take theirs' }).click();
  const outcome = app.locator('.conflicts-outcome[role="status"]');
  await expect(outcome).toContainText('Took theirs');
  await outcome.getByRole('button', { name: 'Undo' }).click();
  await expect(toasts(app)).toContainText(
    'Undone: Conflict resolution for Ada Theirs UNDO-CONFLICT.',
  );
  // Mine again, now a change on the server's version: sent like any other, no conflict.
  await syncAll(app);
  const [onServer] = await serverProtocols(partnerSandbox, 'UNDO-CONFLICT');
  expect(onServer).toMatchObject({ id: serverId, customer: { lastName: 'Mine UNDO-CONFLICT' } });
  expect(session.protocols.conflicts()).toEqual([]);
});

test('undo of keep mine, once on the server, sends theirs again: the server, the list and the editor', async ({
  app,
  host,
  partnerSandbox,
}) => {
  await connectPartner(app, partnerSandbox);
  const { session, localId, serverId } = await editedOnBothSides(
    app,
    host,
    partnerSandbox,
    'UNDO-KEEP',
  );

  await goTo(app, '#/conflicts');
  const conflict = app.getByRole('region', { name: 'Ada Mine UNDO-KEEP', exact: true });
  await conflict.getByRole('button', { name: 'Keep mine' }).click();
  await app.getByRole('button', { name: "Replace the server's version" }).click();
  await expect(app.locator('.conflicts-outcome[role="status"]')).toContainText('Kept yours');
  await syncAll(app);
  const [mine] = await serverProtocols(partnerSandbox, 'UNDO-KEEP');
  expect(mine).toMatchObject({ id: serverId, customer: { lastName: 'Mine UNDO-KEEP' } });

  await pressUndo(app);
  await expect(toasts(app)).toContainText('Undone: Conflict resolution for Ada Mine UNDO-KEEP.');
  // Theirs again, sent as a new update on the server's version (mine): no conflict.
  await syncAll(app);
  const back = await serverProtocols(partnerSandbox, 'UNDO-KEEP');
  expect(back.map((p) => [p.id, p.customer.lastName])).toEqual([[serverId, 'Theirs UNDO-KEEP']]);
  expect(session.protocols.conflicts()).toEqual([]);
  await app.keyboard.press('Control+1');
  await expect(list.row(app, 'Ada Theirs UNDO-KEEP')).toHaveCount(1);
  await expect(list.row(app, 'Ada Mine UNDO-KEEP')).toHaveCount(0);
  await goTo(app, `#/protocols/${localId}`);
  await expect(editor.field(app, 'Last name')).toHaveValue('Theirs UNDO-KEEP');

  // Redo: mine again, on the server too.
  await toasts(app).getByRole('button', { name: 'Redo' }).click();
  await expect(toasts(app)).toContainText('Redone: Conflict resolution for Ada Mine UNDO-KEEP.');
  await expect(editor.field(app, 'Last name')).toHaveValue('Mine UNDO-KEEP');
  await syncAll(app);
  const [again] = await serverProtocols(partnerSandbox, 'UNDO-KEEP');
  expect(again).toMatchObject({ id: serverId, customer: { lastName: 'Mine UNDO-KEEP' } });
});

/** Ctrl+Shift+Z with the focus outside any text field. */
async function pressRedo(app: Page): Promise<void> {
  await app.getByRole('heading', { level: 1 }).click();
  await app.keyboard.press('Control+Shift+z');
}

test("undo of the list's columns and filters: in the order made, and after a reload", async ({
  app,
  host,
  partnerSandbox,
}) => {
  await connectPartner(app, partnerSandbox);
  seedProtocol(host, protocolFor('UNDO-VIEW'));
  await goTo(app, '#/protocols');
  await expect(list.row(app, 'UNDO-VIEW')).toHaveCount(1);
  const supply = app
    .getByRole('group', { name: 'Sort protocols by' })
    .getByRole('button', { name: /^Supply/ });
  const refill = app.getByRole('combobox', { name: 'Refill' });
  await expect(supply).toBeVisible();

  // A column hidden, then a filter chosen: two steps.
  const chooser = app.locator('details.column-chooser');
  await chooser.locator('summary').click();
  await chooser.getByRole('checkbox', { name: 'Supply' }).uncheck();
  await expect(supply).toBeHidden();
  await app.keyboard.press('Escape');
  await refill.selectOption({ label: 'Due within 7 days' });
  await expect(list.row(app, 'UNDO-VIEW')).toHaveCount(0);

  // Ctrl+Z twice: the filter back, then the column.
  await pressUndo(app);
  await expect(toasts(app)).toContainText('Undone: Filters of the protocol list.');
  await expect(refill).toHaveValue('');
  await expect(list.row(app, 'UNDO-VIEW')).toHaveCount(1);
  await expect(supply).toBeHidden();
  await pressUndo(app);
  await expect(toasts(app)).toContainText('Undone: Columns of the protocol list.');
  await expect(supply).toBeVisible();
  await expect(refill).toHaveValue('');

  // Ctrl+Shift+Z redoes the column hidden (the oldest undone).
  await pressRedo(app);
  await expect(toasts(app)).toContainText('Redone: Columns of the protocol list.');
  await expect(supply).toBeHidden();

  // The history is in the connection's store: after a reload Ctrl+Z still undoes the column, and
  // the filter undone before it can still be redone.
  await app.reload();
  await expect(app.getByRole('heading', { level: 1, name: 'Protocols' })).toBeVisible();
  await expect(list.row(app, 'UNDO-VIEW')).toHaveCount(1);
  await expect(supply).toBeHidden();
  await pressUndo(app);
  await expect(toasts(app)).toContainText('Undone: Columns of the protocol list.');
  await expect(supply).toBeVisible();
  await pressRedo(app);
  await expect(toasts(app)).toContainText('Redone: Columns of the protocol list.');
  await expect(supply).toBeHidden();
  await pressRedo(app);
  await expect(toasts(app)).toContainText('Redone: Filters of the protocol list.');
  await expect(refill).toHaveValue('within-7');
  await expect(list.row(app, 'UNDO-VIEW')).toHaveCount(0);
  // Each undo and redo is in the activity record, naming no patient.
  const entries = host.core.store.activity.page({}, 6, 0);
  expect(entries.map((e) => [e.action, e.detail.step])).toEqual([
    ['redo', 'view'],
    ['settings-changed', undefined],
    ['redo', 'columns'],
    ['settings-changed', undefined],
    ['undo', 'columns'],
    ['settings-changed', undefined],
  ]);
});
