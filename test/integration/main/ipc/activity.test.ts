import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityAction, ActivityDetail, ActivitySubjects } from '@shared/activity-views';
import type { ProtocolRequest } from '@shared/api';
import type { IpcArgs, IpcChannel, IpcValue, OrderDeskApi } from '@shared/ipc';
import { createOrderDeskApi } from '@shared/ipc-bridge';
import type { ActivityEntry } from '@main/activity/activity-repo';
import { MemoryCredentialStore } from '@main/connections/keychain';
import { Core } from '@main/core';
import { protocolsCsv } from '@main/csv/protocol-export';
import { readCsv } from '@main/csv-text';
import { createIpcDispatcher, type IpcHost } from '@main/ipc/dispatch';
import { forwardIpcEvents } from '@main/ipc/event-forwarding';
import { Redactor, silentLogger } from '@main/logging';
import { connectionStoreFile } from '@main/db';
import { openedStartup } from '@main/startup';
import type { LocalStore } from '@main/stores';
import { setFaults } from '@test/support/client-harness';
import { TEST_KEY } from '@test/support/store-key';
import { startTestSandbox, validOrderBody, type TestSandbox } from '@test/support/sandbox';
import { damagePages, pagesOf } from '@test/support/store-damage';
import { waitFor } from '@test/support/wait';

/**
 * The activity record through the IPC dispatcher, as the window drives it: each audited action
 * writes exactly its entry (action, ids, facts, who and which desk), in the store it belongs to;
 * no patient data beyond the Patient ID reaches the record; the screen's reads, export and
 * check; and a recovered store records its recovery.
 */

/** A patient whose every detail is a word found nowhere else, so a leak is easy to see. */
const SECRET = {
  firstName: 'Zephyrine',
  lastName: 'Quillfeather',
  email: 'zephyrine.q@example.com',
  phone: '+1 503 555 0177',
  line1: '77 Hiddenbrook Lane',
  line2: 'Apartment Xylo 9',
  city: 'Marbleton',
};
const PATIENT_WORDS = Object.values(SECRET);

const draftFor = (sourceId: string, over: Partial<ProtocolRequest> = {}): ProtocolRequest => {
  const body = validOrderBody() as ProtocolRequest;
  return {
    ...body,
    customer: {
      sourceId,
      firstName: SECRET.firstName,
      lastName: SECRET.lastName,
      email: SECRET.email,
      phone: SECRET.phone,
      address: {
        line1: SECRET.line1,
        line2: SECRET.line2,
        city: SECRET.city,
        state: 'OR',
        zipCode: '97210',
      },
    },
    ...over,
  };
};

const host: IpcHost = {
  transport: 'electron',
  version: '0.0.0',
  platform: 'linux',
  openExternal: async () => undefined,
  // The save dialog as a user answers it: a name starting "cancel" is the dialog closed.
  savePdf: async (fileName) => ({ saved: !fileName.startsWith('cancel') }),
};

interface Harness {
  core: Core;
  api: OrderDeskApi;
  value<C extends IpcChannel>(channel: C, args: IpcArgs<C>): Promise<IpcValue<C>>;
}

async function openHarness(dataDir: string, credentials: MemoryCredentialStore): Promise<Harness> {
  const core = await Core.open({
    dataDir,
    credentials,
    log: silentLogger,
    redactor: new Redactor(),
    key: TEST_KEY,
    embeddedDb: join(dataDir, 'embedded.db'),
    tuning: { inDoubtGraceMs: { protocol: 200, order: 200 }, probeBackoffMs: 100 },
  });
  const dispatcher = createIpcDispatcher({ startup: openedStartup(core), host, log: silentLogger });
  const api = createOrderDeskApi({
    invoke: (channel, args) => dispatcher.dispatch(channel, args),
    subscribe: (listener) => forwardIpcEvents(openedStartup(core), listener),
  });
  return {
    core,
    api,
    async value(channel, args) {
      const result = await api.call(channel, args);
      if (!result.ok) throw new Error(`${channel} failed: ${JSON.stringify(result.error)}`);
      return result.value;
    },
  };
}

/** Every entry of a store, oldest first. */
const allEntries = (store: LocalStore): ActivityEntry[] =>
  store.activity.page({}, 100_000, 0).reverse();

describe('the activity record over IPC', () => {
  let dataDir: string;
  let partner: TestSandbox;
  let h: Harness;
  let partnerId: string;
  /** The newest seq seen: entries after it are what the step under test wrote. */
  let mark = 0;

  /** The entries written since the last call, oldest first. */
  const written = (): ActivityEntry[] => {
    const entries = allEntries(h.core.store).filter((e) => e.seq > mark);
    mark = Math.max(mark, ...entries.map((e) => e.seq));
    return entries;
  };

  /** Exactly one entry since the last call: this action, these ids and facts, by `staff`. */
  const expectOne = (
    action: ActivityAction,
    subjects: ActivitySubjects,
    detail: ActivityDetail = {},
    staff: string | null = 'Dana',
  ): ActivityEntry => {
    const entries = written();
    expect(entries.map((e) => e.action)).toEqual([action]);
    const [entry] = entries;
    expect(entry!.subjects).toEqual(subjects);
    expect(entry!.detail).toEqual(detail);
    expect(entry).toMatchObject({
      staff,
      osUser: userInfo().username,
      deskName: hostname(),
      deskId: h.core.desk.id,
    });
    expect(Date.parse(entry!.atLocal)).toBeGreaterThan(Date.now() - 60_000);
    return entry!;
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'order-desk-activity-'));
    partner = await startTestSandbox();
    h = await openHarness(dataDir, new MemoryCredentialStore());
    const connection = await h.value('connections.connect', {
      kind: 'partner-sandbox',
      label: 'Partner sandbox',
      baseUrl: partner.baseUrl,
      authUrl: partner.authUrl,
      clientId: partner.clientId,
      clientSecret: partner.clientSecret,
    });
    partnerId = connection.id;
  }, 60_000);

  afterAll(async () => {
    await h?.core.close();
    await partner?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('records the connection entered, with no person at the desk yet', () => {
    const entry = expectOne(
      'connection-switched',
      { connection: partnerId },
      { previousConnection: null },
      null,
    );
    expect(entry.seq).toBe(1);
  });

  it('records the people of the desk and who is at it, as settings of this desk', async () => {
    expect((await h.value('app.state', {})).staff).toEqual([]);
    await h.value('staff.add', { name: 'Dana' });
    await h.value('staff.add', { name: 'Lee' });
    const twice = await h.api.call('staff.add', { name: 'dana' });
    expect(twice).toMatchObject({ ok: false, error: { kind: 'validation' } });
    expect(written().map((e) => [e.action, e.detail.keys])).toEqual([
      ['settings-changed', ['desk.staff']],
      ['settings-changed', ['desk.staff']],
    ]);
    expect(await h.value('staff.choose', { name: 'Dana' })).toEqual({
      staff: ['Dana', 'Lee'],
      atDesk: 'Dana',
    });
    expectOne('settings-changed', {}, { scope: 'app', keys: ['desk.atDesk'] });
    const state = await h.value('app.state', {});
    expect(state).toMatchObject({
      staff: ['Dana', 'Lee'],
      atDesk: 'Dana',
      desk: { name: hostname(), osUser: userInfo().username },
      retentionYears: 6,
    });
  });

  let adaId = '';
  let serverId = '';

  it('records a protocol created, edited, copied and deleted, each in its own write', async () => {
    const created = await h.value('protocols.create', { draft: draftFor('act-ada') });
    adaId = created.localId;
    expectOne('protocol-created', { patients: ['act-ada'], protocols: [adaId] });

    serverId = await waitFor(async () => {
      await h.value('sync.now', {});
      return (await h.value('protocols.get', { localId: adaId })).serverId;
    }, 10_000);
    expect(written()).toEqual([]); // a sync is the app's own work, not a person's
    await h.value('protocols.update', {
      localId: adaId,
      draft: draftFor('act-ada', { daysSupply: 60 }),
    });
    expectOne(
      'protocol-edited',
      { patients: ['act-ada'], protocols: [adaId], serverProtocols: [serverId] },
      { keys: ['daysSupply'] },
    );

    const copy = await h.value('protocols.duplicate', {
      localId: adaId,
      customer: draftFor('act-bea').customer,
    });
    expectOne('protocol-duplicated', {
      patients: ['act-ada', 'act-bea'],
      protocols: [adaId, copy.localId],
      serverProtocols: [serverId],
    });

    expect(await h.value('protocols.delete', { localId: copy.localId })).toEqual({
      effect: 'dropped',
    });
    expectOne(
      'protocol-deleted',
      { patients: ['act-bea'], protocols: [copy.localId] },
      { effect: 'dropped' },
    );
    // A refused command writes nothing.
    const refused = await h.api.call('protocols.update', {
      localId: copy.localId,
      draft: draftFor('act-bea'),
    });
    expect(refused.ok).toBe(false);
    expect(written()).toEqual([]);
  });

  it('records a conflict resolved, with the choice', async () => {
    await h.value('sync.now', {});
    await h.core.session!.client.replaceProtocol(serverId, draftFor('act-ada', { daysSupply: 90 }));
    await h.value('protocols.update', {
      localId: adaId,
      draft: draftFor('act-ada', { daysSupply: 30 }),
    });
    await h.value('sync.now', {});
    expect((await h.value('protocols.conflicts', {})).map((c) => c.localId)).toEqual([adaId]);
    written();
    const { copyLocalId } = await h.value('protocols.resolveConflict', {
      localId: adaId,
      choice: 'keep-both',
    });
    expectOne(
      'conflict-resolved',
      {
        patients: ['act-ada'],
        protocols: [adaId, copyLocalId!],
        serverProtocols: [serverId],
      },
      { choice: 'keep-both', conflict: 'edited-on-server' },
    );
    await h.value('sync.now', {});
  });

  it('records a CSV import (the ids, how many, how many skipped) and a CSV export', async () => {
    const csv = protocolsCsv(
      [
        draftFor('act-csv-1'),
        draftFor('act-csv-2'),
        draftFor('act-csv-3', { daysSupply: 45 as 30 }),
      ],
      () => undefined,
    );
    const preview = await h.value('protocols.importPreview', { csv });
    expect(preview).toMatchObject({ ready: 2 });
    expect(written()).toEqual([]);
    await h.value('protocols.importCommit', { csv, expectedReady: 2 });
    const imported = expectOne(
      'csv-imported',
      {
        patients: ['act-csv-1', 'act-csv-2'],
        protocols: expect.any(Array) as unknown as string[],
      },
      { what: 'protocols', count: 2, skipped: 1 },
    );
    expect(imported.subjects.protocols).toHaveLength(2);

    const exported = await h.value('protocols.exportCsv', { search: SECRET.lastName });
    expect(exported.rows).toBeGreaterThanOrEqual(4);
    const entry = expectOne(
      'csv-exported',
      expect.objectContaining({ patients: expect.arrayContaining(['act-ada', 'act-csv-1']) }),
      { what: 'protocols', count: exported.rows, filters: ['search'] },
    );
    expect(entry.subjects.protocols).toHaveLength(exported.rows);
  });

  let orderId = '';

  it('records a batch submitted by the person at the desk, and its order as theirs when it is created later', async () => {
    // Creates answer late: the person at the desk changes before the order exists.
    await setFaults(partner, { latencyMs: 400, match: { method: 'POST', path: '/v1/orders' } });
    const { batchId } = await h.value('batches.submit', {
      protocolLocalIds: [adaId],
      name: `${SECRET.firstName}'s refill`,
    });
    expectOne(
      'batch-submitted',
      { batches: [batchId], protocols: [adaId], patients: ['act-ada'] },
      { source: 'batch', concurrency: 4, named: true, count: 1 },
    );
    await h.value('staff.choose', { name: 'Lee' });
    written();
    const created = await waitFor(
      () => written().find((e) => e.action === 'order-created'),
      15_000,
      'no order created',
    );
    await setFaults(partner, {});
    orderId = created.subjects.orders![0]!;
    expect(created).toMatchObject({
      staff: 'Dana',
      subjects: {
        orders: [orderId],
        patients: ['act-ada'],
        batches: [batchId],
        protocols: [adaId],
      },
      detail: {},
    });
    expect(written()).toEqual([]);
  });

  it('records an order cancelled, and an order export', async () => {
    expect(await h.value('orders.cancel', { orderId })).toMatchObject({ ok: true });
    expectOne(
      'order-cancelled',
      { orders: [orderId], patients: ['act-ada'], protocols: [adaId] },
      {},
      'Lee',
    );
    // Refused (already cancelled): nothing happened, nothing recorded.
    expect(await h.value('orders.cancel', { orderId })).toMatchObject({ ok: false });
    expect(written()).toEqual([]);

    const file = await h.value('orders.exportCsv', { statuses: ['CANCELLED'] });
    expect(file.rows).toBe(1);
    expectOne(
      'csv-exported',
      { orders: [orderId], patients: ['act-ada'] },
      { what: 'orders', count: 1, filters: ['statuses'] },
      'Lee',
    );
    await h.value('orders.exportCsv', { orderIds: [orderId] });
    expect(written()[0]!.detail.filters).toEqual(['orderIds']);
  });

  it('records a schedule printed (the window says so) and saved as a PDF, never its file name', async () => {
    await h.value('schedule.printed', { subjects: { protocols: [adaId] } });
    expectOne(
      'schedule-printed',
      { patients: ['act-ada'], protocols: [adaId] },
      { schedules: 1 },
      'Lee',
    );
    const fileName = `dosing-schedule-${SECRET.firstName.toLowerCase()}-2026-11-26.pdf`;
    const subjects = { orders: [orderId] };
    expect(await h.value('schedule.savePdf', { fileName, subjects })).toEqual({ saved: true });
    expectOne(
      'schedule-saved',
      { patients: ['act-ada'], orders: [orderId] },
      { schedules: 1 },
      'Lee',
    );
    // The save dialog closed: nothing saved, nothing recorded.
    await h.value('schedule.savePdf', { fileName: 'cancel.pdf', subjects });
    expect(written()).toEqual([]);
  });

  it('records settings changed: the partner settings (the keys), the app settings, the retention', async () => {
    await h.value('settings.update', { supportEmail: 'desk@clinic.example', phone: null });
    expectOne('settings-changed', {}, { scope: 'partner', keys: ['phone', 'supportEmail'] }, 'Lee');
    await h.value('app.setTheme', { theme: 'dark' });
    expectOne('settings-changed', {}, { scope: 'app', keys: ['ui.theme'] }, 'Lee');
    await h.value('app.setTheme', { theme: 'dark' }); // no change: nothing to record
    await h.value('app.setNotifications', { enabled: false });
    expectOne('settings-changed', {}, { scope: 'app', keys: ['ui.notifications'] }, 'Lee');
    await h.value('activity.setRetention', { years: 7 });
    expectOne('settings-changed', {}, { scope: 'app', keys: ['activity.retentionYears'] }, 'Lee');
    expect((await h.value('app.state', {})).retentionYears).toBe(7);
    await h.value('updates.configure', { enabled: false, feedUrl: 'https://updates.example.com/' });
    expectOne('settings-changed', {}, { scope: 'app', keys: ['app.updates'] }, 'Lee');
  });

  it('records a switch in the store entered, and a removal in the store of the active connection', async () => {
    const embedded = await h.value('connections.useEmbedded', {});
    // In the embedded sandbox's own store: entered from the partner connection.
    const there = allEntries(h.core.store);
    expect(there.map((e) => [e.action, e.subjects, e.detail, e.staff])).toEqual([
      [
        'connection-switched',
        { connection: embedded.id },
        { previousConnection: partnerId },
        'Lee',
      ],
    ]);
    await h.value('connections.activate', { id: partnerId });
    expectOne(
      'connection-switched',
      { connection: partnerId },
      { previousConnection: embedded.id },
      'Lee',
    );
    await h.value('connections.remove', { id: embedded.id });
    expectOne(
      'connection-removed',
      { connection: embedded.id },
      { removed: { protocols: 0, unsentChanges: 0, batches: 0, orders: 0 } },
      'Lee',
    );
  });

  it('lists, filters, exports and checks the record; the export is recorded too', async () => {
    const all = await h.value('activity.list', {});
    expect(all.total).toBe(mark);
    expect(all.entries[0]!.seq).toBe(mark); // newest first
    const ada = await h.value('activity.list', { patient: 'act-ada' });
    expect(ada.entries.every((e) => e.subjects.patients?.includes('act-ada'))).toBe(true);
    expect(ada.entries.map((e) => e.action)).toContain('order-cancelled');
    expect(ada.total).toBe(ada.entries.length);
    const dana = await h.value('activity.list', { person: 'Dana' });
    expect(dana.entries.every((e) => e.staff === 'Dana')).toBe(true);
    expect(dana.entries.map((e) => e.action)).toContain('order-created');
    const byAccount = await h.value('activity.list', { person: userInfo().username });
    expect(byAccount.total).toBe(all.total);
    const cancels = await h.value('activity.list', { action: 'order-cancelled' });
    expect(cancels.entries.map((e) => e.subjects.orders)).toEqual([[orderId]]);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
    expect((await h.value('activity.list', { from: tomorrow })).total).toBe(0);
    expect((await h.value('activity.list', { to: tomorrow })).total).toBe(all.total);
    expect(await h.value('activity.people', {})).toEqual({
      staff: ['Dana', 'Lee'],
      osUsers: [userInfo().username],
    });

    const file = await h.value('activity.exportCsv', { patient: 'act-ada' });
    const { header, rows } = readCsv(file.csv);
    expect(file.rows).toBe(ada.total);
    expect(rows).toHaveLength(ada.total);
    const col = (name: string) => header.indexOf(name);
    expect(rows[0]!.cells[col('Action code')]).toBe(ada.entries[0]!.action);
    expect(rows.every((r) => r.cells[col('Patient IDs')]!.split(' ').includes('act-ada'))).toBe(
      true,
    );
    expectOne(
      'csv-exported',
      { patients: ['act-ada'] },
      { what: 'activity', count: ada.total, filters: ['patient'] },
      'Lee',
    );
    expect(await h.value('activity.check', {})).toEqual({
      intact: true,
      entries: mark,
      first: 1,
    });
  });

  it('keeps every patient detail but the Patient ID out of the record', () => {
    const text = JSON.stringify(h.core.store.db.prepare('SELECT * FROM activity').all());
    expect(text.length).toBeGreaterThan(1000);
    for (const word of PATIENT_WORDS) expect(text).not.toContain(word);
    expect(text).not.toContain('Zephyrine'.toLowerCase());
    expect(text).toContain('act-ada');
  });

  it('says where the chain breaks when an entry was changed behind its back', async () => {
    const db = h.core.store.db;
    db.exec('DROP TRIGGER activity_no_update');
    db.prepare("UPDATE activity SET staff = 'Mallory' WHERE seq = 5").run();
    expect(await h.value('activity.check', {})).toEqual({
      intact: false,
      entries: 4,
      brokenAt: 5,
      reason: 'hash-mismatch',
      message: 'Entry #5 was changed after it was written: its content does not match its hash.',
    });
  });
});

describe('a recovered store', () => {
  it('records its recovery in the store recovered, after the entries that could be read', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'order-desk-activity-recovered-'));
    const partner = await startTestSandbox();
    const credentials = new MemoryCredentialStore();
    try {
      let h = await openHarness(dataDir, credentials);
      const { id } = await h.value('connections.connect', {
        kind: 'partner-sandbox',
        label: 'Partner sandbox',
        baseUrl: partner.baseUrl,
        authUrl: partner.authUrl,
        clientId: partner.clientId,
        clientSecret: partner.clientSecret,
      });
      // Dana is at the desk, but the recovery is the app's own doing: no person named.
      await h.value('staff.add', { name: 'Dana' });
      await h.value('staff.choose', { name: 'Dana' });
      for (let i = 0; i < 120; i++) h.core.session!.protocols.create(draftFor(`act-rec-${i}`));
      const before = allEntries(h.core.store).length;
      await h.core.close();
      const file = connectionStoreFile(dataDir, id);
      const rows = pagesOf(file, 'protocols', 'leaf');
      damagePages(file, [rows[Math.floor(rows.length / 2)]!.page]);

      h = await openHarness(dataDir, credentials);
      try {
        const entries = allEntries(h.core.store);
        expect(entries).toHaveLength(before + 1);
        const last = entries.at(-1)!;
        expect(last).toMatchObject({
          action: 'store-recovered',
          subjects: { connection: id },
          detail: { recovery: { cause: 'damaged', unsentChanges: expect.any(Number) } },
          staff: null,
        });
        expect(last.detail.recovery!.unreadable).toBeGreaterThan(0);
        expect(await h.value('activity.check', {})).toEqual({
          intact: true,
          entries: before + 1,
          first: 1,
        });
      } finally {
        await h.core.close();
      }
    } finally {
      await partner.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
