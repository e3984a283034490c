import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Core } from '@main/core';
import { secretAccount } from '@main/connections/connection';
import { MemoryCredentialStore } from '@main/connections/keychain';
import { EMBEDDED_CLIENT_ID, EMBEDDED_CONNECTION_ID } from '@main/embedded-sandbox';
import { CreateOrderRequest, type ProtocolRequest } from '@shared/api';
import { SUBJECT_OF_TABLE } from '@main/db/store-changes';
import {
  IPC_CALLS,
  IPC_CHANNELS,
  IPC_EVENTS,
  READ_CHANNELS,
  subjectsOfRead,
  type ReadChannel,
  type IpcArgs,
  type IpcChannel,
  type IpcEventName,
  type IpcResult,
  type IpcValue,
  type OrderDeskApi,
} from '@shared/ipc';
import { CSV_TEXT_MAX } from '@shared/protocol-csv-views';
import type { ProtocolListView } from '@shared/protocol-views';
import { readCsv, writeCsv } from '@main/csv-text';
import { startTestSandbox, validOrderBody, type TestSandbox } from '@test/support/sandbox';
import type { FakeUpdater } from '@test/support/fake-updater';

/** One call of a read channel, and the tables its SQL read (test/support/sql-trace.ts). */
export interface TracedRead {
  channel: ReadChannel;
  ok: boolean;
  tables: string[];
}

/** What one transport gives the suite. */
export interface ContractTarget {
  /** window.orderDesk as the renderer gets it on this transport (createOrderDeskApi on top). */
  api: OrderDeskApi;
  /** Sends a call exactly as given, past the bridge's own checks, and answers the raw envelope. */
  raw(channel: unknown, args: unknown): Promise<unknown>;
  /** Every event as main sends it, before the bridge's own checks; returns the unsubscribe. */
  rawEvents(listener: (event: string, payload: unknown) => void): () => void;
  core: Core;
  /** URLs the host opened with app.openExternal (null where the transport opens them itself). */
  openedUrls: string[] | null;
  /** PDFs the host saved with schedule.savePdf (null where the browser prints them itself). */
  savedPdfs: string[] | null;
  /** The updater main was given (the Electron app); null where there is none (the browser host). */
  updater: FakeUpdater | null;
  /** Every read channel's call with the tables it read (the Electron transport traces them). */
  reads?: TracedRead[];
  close(): Promise<void>;
}

export interface ContractSetup {
  dataDir: string;
  credentials: MemoryCredentialStore;
  /** The embedded sandbox's database, in the temp dir. */
  embeddedDb: string;
}

/** One bad argument per channel (the Record type makes a new channel fail to compile here). */
const BAD_ARGS: Record<IpcChannel, unknown> = {
  'startup.state': { extra: 1 },
  'startup.retry': { now: true },
  'startup.startFresh': { confirm: false },
  'app.state': { extra: 1 },
  'app.setTheme': { theme: 'blue' },
  'app.openExternal': { url: 'file:///etc/passwd' },
  'app.setNotifications': { enabled: 'yes' },
  'app.setStartScreen': { screen: 'orders' },
  'app.setProtocolColumns': { columns: ['products', 'age'] },
  'app.dismissNotice': { id: '' },
  'app.presence': { visible: 'yes', input: false },
  'connections.list': { all: true },
  'connections.test': {
    kind: 'embedded',
    label: '',
    baseUrl: '',
    authUrl: '',
    clientId: '',
    clientSecret: '',
  },
  'connections.connect': { kind: 'production', label: 'Clinic' },
  'connections.useEmbedded': { discardPendingWork: true },
  'connections.activate': { id: '' },
  'connections.update': { id: 'conn_1', label: '' },
  'connections.removal': { id: '' },
  'connections.remove': { id: 42 },
  'sync.now': { now: true },
  'catalog.products': { limit: 0, status: ['SOLD'] },
  'catalog.product': { id: -1 },
  'catalog.shippingMethods': { all: 1 },
  'catalog.pricing': { fresh: true },
  'protocols.list': { limit: 0, syncStates: ['lost'], search: 'x'.repeat(201), sort: 'age' },
  'protocols.count': { search: 7, hide: ['not-a-uuid'], productId: -3 },
  'protocols.matchingIds': { syncStates: ['doubtful'], productId: 'krill' },
  'protocols.duplicate': { localId: '7a1f4c52-3a3e-4d3e-9b7c-2f1d4c5b6a70', customer: {} },
  'protocols.get': { localId: 'not-a-uuid' },
  'protocols.create': { draft: { customer: { sourceId: '' }, daysSupply: 45 } },
  'protocols.update': { localId: '7a1f4c52-3a3e-4d3e-9b7c-2f1d4c5b6a70', draft: { lineItems: [] } },
  'protocols.delete': { localId: 42 },
  'protocols.conflicts': { all: true },
  'protocols.resolveConflict': {
    localId: '7a1f4c52-3a3e-4d3e-9b7c-2f1d4c5b6a70',
    choice: 'keep-everything',
  },
  'protocols.importPreview': { csv: 'x'.repeat(CSV_TEXT_MAX + 1) },
  'protocols.importCommit': { csv: 42, expectedReady: -1 },
  'protocols.exportCsv': { sort: 'age', syncStates: ['lost'] },
  'protocols.csvTemplate': { groups: 3 },
  'batches.review': { protocolLocalIds: [] },
  'batches.submit': { protocolLocalIds: [], concurrency: 99 },
  'batches.list': { state: 'running' },
  'batches.items': { batchId: 'nope' },
  'batches.pause': { batchId: 7 },
  'batches.continue': {},
  'batches.retryItem': { batchId: '7a1f4c52-3a3e-4d3e-9b7c-2f1d4c5b6a70', seq: -1 },
  'refills.due': { withinDays: 400 },
  'dashboard.summary': { extra: 1 },
  'patients.list': { search: 'x'.repeat(201), limit: 0 },
  'patients.get': { sourceId: '' },
  'patients.sharedIds': { extra: 1 },
  'patients.untangle': { choice: 'merge', sourceId: 'PAT-1' },
  'palette.search': { text: 'x'.repeat(201), limit: 0 },
  'orders.list': { statuses: ['LOST'], limit: 0, createdFrom: 'yesterday' },
  'orders.counts': { search: 'x'.repeat(201) },
  'orders.exportCsv': { statuses: ['LOST'], createdTo: 'tomorrow' },
  'orders.get': { orderId: '' },
  'orders.protocol': { orderId: 42 },
  'orders.timeline': { orderId: '' },
  'orders.review': { from: 'protocol', protocolLocalId: 'not-a-uuid' },
  'orders.create': { from: 'scratch', draft: { lineItems: [] } },
  'orders.refresh': { id: 'ord_1' },
  'orders.cancel': { orderId: 'x'.repeat(101) },
  'settings.get': { fresh: true },
  'settings.update': { supportEmail: 'not an email', name: 'read-only field' },
  'settings.revealWebhookSecret': { please: true },
  'settings.rotateWebhookSecret': { confirm: false },
  'schedule.savePdf': { fileName: '../../etc/passwd.pdf' },
  'schedule.printed': { subjects: {} },
  'activity.list': { action: 'everything', limit: 0 },
  'activity.people': { all: true },
  'activity.check': { deep: true },
  'activity.exportCsv': { from: 'yesterday' },
  'activity.setRetention': { years: 0 },
  'staff.add': { name: '   ' },
  'staff.rename': { from: 'Dana', to: 'x'.repeat(61) },
  'staff.remove': { name: '' },
  'staff.choose': { name: 42 },
  'updates.get': { now: true },
  'updates.configure': { enabled: true, feedUrl: 'http://updates.example.com/' },
  'updates.check': { force: true },
  'updates.install': { now: 1 },
  'practice.state': { on: true },
  'practice.setEnabled': { enabled: 'yes' },
  'practice.advanceOrder': { orderId: 'ord_1', to: 'NEW' },
  'practice.setOffline': { offline: 1 },
  'practice.setServer': { server: 'down' },
  'practice.setFulfillment': { speed: 'warp' },
  'practice.stepOrders': { all: true },
  'practice.changeProtocol': { protocolId: '' },
  'practice.setProductStatus': { productId: 1001, status: 'DRAFT' },
  'undo.undo': { all: true },
  'undo.redo': { step: 1 },
  'undo.state': { extra: 1 },
  'undo.noteView': {
    before: { syncStates: [], productId: null, due: null, sort: 'changed', direction: null },
    after: {
      syncStates: ['pending'],
      productId: null,
      due: 'soon',
      sort: 'changed',
      direction: null,
    },
  },
};

async function freePortThatRefuses(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * The contract tests, registered once per transport: the dispatcher called directly (what
 * ipcMain.handle runs) and the browser host over a real WebSocket run exactly these.
 */
export function registerContractSuite(
  transport: 'electron' | 'browser',
  start: (setup: ContractSetup) => Promise<ContractTarget>,
): void {
  describe(`IPC contract over the ${transport} transport`, () => {
    let dir: string;
    let credentials: MemoryCredentialStore;
    let target: ContractTarget;
    let partner: TestSandbox;
    const answers: { channel: IpcChannel; result: IpcResult<unknown> }[] = [];
    const events: { event: IpcEventName; payload: unknown }[] = [];
    /** What main put on the wire (the bridge checks again; this is main's own check). */
    const sentEvents: { event: string; payload: unknown }[] = [];
    const unsubscribe: (() => void)[] = [];

    /** Every call goes through here: the answer is recorded and checked against the contract. */
    async function call<C extends IpcChannel>(
      channel: C,
      args: IpcArgs<C>,
    ): Promise<IpcResult<IpcValue<C>>> {
      const result = await target.api.call(channel, args);
      answers.push({ channel, result });
      if (result.ok) expect(IPC_CALLS[channel].result.safeParse(result.value).success).toBe(true);
      return result;
    }
    async function value<C extends IpcChannel>(channel: C, args: IpcArgs<C>) {
      const result = await call(channel, args);
      if (!result.ok) throw new Error(`${channel} failed: ${JSON.stringify(result.error)}`);
      return result.value;
    }
    async function failure<C extends IpcChannel>(channel: C, args: unknown) {
      const result = await call(channel, args as IpcArgs<C>);
      if (result.ok) throw new Error(`${channel} answered ok: ${JSON.stringify(result.value)}`);
      return result.error;
    }
    const partnerInput = (secret: string) => ({
      kind: 'partner-sandbox' as const,
      label: 'Partner sandbox',
      baseUrl: partner.baseUrl,
      authUrl: partner.authUrl,
      clientId: partner.clientId,
      clientSecret: secret,
    });

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), `order-desk-ipc-${transport}-`));
      credentials = new MemoryCredentialStore();
      partner = await startTestSandbox();
      target = await start({ dataDir: dir, credentials, embeddedDb: join(dir, 'embedded.db') });
      for (const event of Object.keys(IPC_EVENTS) as IpcEventName[]) {
        unsubscribe.push(target.api.on(event, (payload) => events.push({ event, payload })));
      }
      unsubscribe.push(target.rawEvents((event, payload) => sentEvents.push({ event, payload })));
    }, 60_000);

    afterAll(async () => {
      for (const stop of unsubscribe) stop();
      await target?.close();
      await partner?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('says the data is open, and that trying again or starting fresh has nothing left to do', async () => {
      expect(await value('startup.state', {})).toEqual({ phase: 'ready' });
      expect(await value('startup.retry', {})).toEqual({ phase: 'ready' });
      expect(await value('startup.startFresh', { confirm: true })).toEqual({ phase: 'ready' });
    });

    it('answers the state, and refuses what needs a connection before there is one', async () => {
      const state = await value('app.state', {});
      expect(state).toMatchObject({ transport, connection: null, theme: 'system' });
      expect(state.outbox).toEqual({ pending: 0, inDoubt: 0, conflicts: 0 });
      expect(await value('connections.list', {})).toEqual([]);
      for (const channel of ['settings.get', 'sync.now', 'catalog.products'] as const) {
        const error = await failure(channel, {});
        expect(error.kind).toBe('not-connected');
        expect(error.message).toMatch(/Connect screen/);
      }
    });

    it('refuses bad arguments on every channel with invalid-arguments and field errors', async () => {
      for (const channel of IPC_CHANNELS) {
        for (const args of [BAD_ARGS[channel], 'text', 42, null, [1, 2]]) {
          const result = (await target.raw(channel, args)) as IpcResult<unknown>;
          expect(result.ok, `${channel} ${JSON.stringify(args)}`).toBe(false);
          if (result.ok) continue;
          expect(result.error.kind).toBe('invalid-arguments');
          expect(result.error.fieldErrors.length, channel).toBeGreaterThan(0);
          expect(result.error.message).toContain(channel);
        }
      }
      // The same through window.orderDesk.
      const email = await failure('settings.update', { supportEmail: 'not an email' });
      expect(email.kind).toBe('invalid-arguments');
      expect(email.fieldErrors).toEqual([{ path: ['supportEmail'], message: 'email address' }]);
    });

    it('refuses an unknown channel and an unreadable call without throwing', async () => {
      for (const channel of ['app.nope', '', 42, null, { channel: 'app.state' }, 'toString']) {
        const result = (await target.raw(channel, {})) as IpcResult<unknown>;
        expect(result).toMatchObject({ ok: false, error: { kind: 'invalid-arguments' } });
      }
    });

    it('connects to the embedded sandbox and pushes connection-changed and outbox events', async () => {
      const view = await value('connections.useEmbedded', {});
      expect(view).toMatchObject({ id: EMBEDDED_CONNECTION_ID, kind: 'embedded', isActive: true });
      await vi.waitFor(() => {
        const changed = events.filter((e) => e.event === 'connection-changed');
        expect(changed.at(-1)?.payload).toEqual({ connection: view });
        expect(events.some((e) => e.event === 'outbox-count')).toBe(true);
      });
      const state = await value('app.state', {});
      expect(state.connection).toEqual(view);
      expect(state.online).toBe(true);
      await value('sync.now', {});
      await vi.waitFor(async () => expect((await value('app.state', {})).sync.phase).toBe('idle'));
      expect((await value('app.state', {})).sync.lastSyncedAt).not.toBeNull();
    });

    it('sets the theme and opens http(s) links only', async () => {
      expect(await value('app.setTheme', { theme: 'dark' })).toBeNull();
      expect((await value('app.state', {})).theme).toBe('dark');
      expect(
        await value('app.openExternal', { url: 'https://example.com/track?n=1Z999' }),
      ).toBeNull();
      if (target.openedUrls)
        expect(target.openedUrls).toEqual(['https://example.com/track?n=1Z999']);
      const error = await failure('app.openExternal', { url: 'javascript:alert(1)' });
      expect(error.kind).toBe('invalid-arguments');
      expect(error.fieldErrors[0]?.path).toEqual(['url']);
    });

    it('saves the schedule as a PDF in the desktop app only, under a plain file name', async () => {
      const fileName = 'dosing-schedule-ada-lovelace-2026-11-26.pdf';
      const subjects = { orders: ['ipc-schedule-1'] };
      if (target.savedPdfs) {
        expect(await value('schedule.savePdf', { fileName, subjects })).toEqual({ saved: true });
        expect(target.savedPdfs).toEqual([fileName]);
        // The save dialog closed: nothing is saved, and that is no failure.
        expect(await value('schedule.savePdf', { fileName: 'cancel.pdf', subjects })).toEqual({
          saved: false,
        });
        expect(target.savedPdfs).toEqual([fileName]);
      } else {
        const error = await failure('schedule.savePdf', { fileName, subjects });
        expect(error.kind).toBe('unavailable');
        expect(error.message).toMatch(/choose "Save as PDF"/);
      }
      for (const bad of ['notes.txt', 'sub/dir.pdf', '.hidden.pdf', `${'a'.repeat(120)}.pdf`]) {
        const error = await failure('schedule.savePdf', { fileName: bad, subjects });
        expect(error.kind).toBe('invalid-arguments');
        expect(error.fieldErrors[0]?.path).toEqual(['fileName']);
      }
    });

    it('keeps the activity record: who is at the desk, the entries, their check and export', async () => {
      expect(await value('staff.add', { name: 'Dana' })).toEqual({ staff: ['Dana'], atDesk: null });
      expect(await value('staff.rename', { from: 'Dana', to: 'Dana R.' })).toEqual({
        staff: ['Dana R.'],
        atDesk: null,
      });
      expect(await value('staff.choose', { name: 'Dana R.' })).toEqual({
        staff: ['Dana R.'],
        atDesk: 'Dana R.',
      });
      expect(await value('schedule.printed', { subjects: { orders: ['ipc-print-1'] } })).toBeNull();
      const page = await value('activity.list', { action: 'schedule-printed' });
      expect(page.total).toBe(1);
      expect(page.entries[0]).toMatchObject({
        staff: 'Dana R.',
        action: 'schedule-printed',
        subjects: { orders: ['ipc-print-1'] },
      });
      expect((await value('activity.people', {})).staff).toEqual(['Dana R.']);
      expect(await value('activity.check', {})).toMatchObject({ intact: true });
      const file = await value('activity.exportCsv', { action: 'schedule-printed' });
      expect(file.rows).toBe(1);
      expect(await value('activity.setRetention', { years: 6 })).toBeNull();
      expect(await value('staff.remove', { name: 'Dana R.' })).toEqual({ staff: [], atDesk: null });
      const refused = await failure('staff.remove', { name: 'Nobody' });
      expect(refused).toMatchObject({ kind: 'validation', fieldErrors: [{ path: ['name'] }] });
    });

    it('drafts, lists, searches, edits and deletes protocols; the server refuses nothing it was sent', async () => {
      const draft = validOrderBody({
        customer: { ...validOrderBody().customer, sourceId: 'ipc-0001', lastName: 'Contract' },
      }) as ProtocolRequest;
      const created = await value('protocols.create', { draft });
      expect(created).toMatchObject({
        customerName: 'Ada Contract',
        sourceId: 'ipc-0001',
        syncState: 'pending',
        serverId: null,
        change: { op: 'create', state: 'queued', attempts: 0, message: null },
      });
      expect(created.draft.customer.sourceId).toBe('ipc-0001');
      const found = await value('protocols.list', { search: 'contract ipc-0001' });
      expect(found.items.map((p) => p.localId)).toEqual([created.localId]);
      expect(await value('protocols.list', { search: 'zz-nobody-zz' })).toEqual({
        items: [],
        nextCursor: null,
      });
      expect(await value('protocols.count', { search: 'zz-nobody-zz' })).toEqual({ total: 0 });

      await value('sync.now', {});
      const synced = await value('protocols.get', { localId: created.localId });
      expect(synced).toMatchObject({ syncState: 'synced', change: null });
      expect(synced.server?.customer.sourceId).toBe('ipc-0001');

      const edited = await value('protocols.update', {
        localId: created.localId,
        draft: { ...draft, daysSupply: 90 },
      });
      expect(edited).toMatchObject({ syncState: 'pending', change: { op: 'update' } });
      expect(await value('protocols.delete', { localId: created.localId })).toEqual({
        effect: 'queued',
      });
      await value('sync.now', {});
      expect((await failure('protocols.get', { localId: created.localId })).kind).toBe('not-found');
      expect(await value('protocols.conflicts', {})).toEqual([]);

      // A conflict: the server copy changes (someone else's edit) while a local edit waits.
      const second = await value('protocols.create', {
        draft: { ...draft, customer: { ...draft.customer, sourceId: 'ipc-0002' } },
      });
      await value('sync.now', {});
      const serverId = (await value('protocols.get', { localId: second.localId })).serverId!;
      await target.core.session!.client.replaceProtocol(serverId, { ...draft, daysSupply: 60 });
      await value('protocols.update', {
        localId: second.localId,
        draft: { ...draft, customer: { ...draft.customer, sourceId: 'ipc-0002' }, daysSupply: 90 },
      });
      await value('sync.now', {});
      const [conflict] = await value('protocols.conflicts', {});
      expect(conflict).toMatchObject({
        localId: second.localId,
        kind: 'edited-on-server',
        choices: ['keep-mine', 'take-theirs', 'keep-both'],
      });
      expect(conflict!.mine?.daysSupply).toBe(90);
      expect(conflict!.theirs?.daysSupply).toBe(60);
      expect((await value('protocols.get', { localId: second.localId })).change).toMatchObject({
        state: 'rejected',
        message: expect.stringMatching(/Changed on the server/),
      });
      expect(
        await value('protocols.resolveConflict', {
          localId: second.localId,
          choice: 'take-theirs',
        }),
      ).toEqual({ localId: second.localId, copyLocalId: null, undoable: true });
      expect(await value('protocols.get', { localId: second.localId })).toMatchObject({
        syncState: 'synced',
        change: null,
        draft: { daysSupply: 60 },
      });

      const missing = await failure('protocols.resolveConflict', {
        localId: created.localId,
        choice: 'keep-mine',
      });
      expect(missing.kind).toBe('not-found');
      // A draft the contract refuses names its field.
      const bad = await failure('protocols.create', {
        draft: {
          ...draft,
          customer: { ...draft.customer, address: { ...draft.customer.address, zipCode: '123' } },
        },
      });
      expect(bad.kind).toBe('invalid-arguments');
      expect(bad.fieldErrors[0]?.path).toEqual(['draft', 'customer', 'address', 'zipCode']);
    });

    it('undoes and redoes an edit and a delete through the protocol commands', async () => {
      const base = validOrderBody() as ProtocolRequest;
      const draft = { ...base, customer: { ...base.customer, sourceId: 'ipc-undo-1' } };
      const created = await value('protocols.create', { draft });
      await value('sync.now', {});
      await value('protocols.update', {
        localId: created.localId,
        draft: { ...draft, daysSupply: 60 },
      });
      expect(await value('undo.state', {})).toMatchObject({
        undo: { kind: 'edit', label: 'Edit of the protocol for Ada Lovelace' },
        redo: null,
      });
      // Not sent yet: the pending update takes the draft as it was.
      const undone = await value('undo.undo', {});
      expect(undone).toMatchObject({ step: { kind: 'edit' }, localIds: [created.localId] });
      expect(await value('protocols.get', { localId: created.localId })).toMatchObject({
        draft: { daysSupply: 30 },
        change: { op: 'update' },
      });
      expect((await value('undo.state', {})).redo).toMatchObject({ kind: 'edit' });
      await value('undo.redo', {});
      expect((await value('protocols.get', { localId: created.localId })).draft.daysSupply).toBe(
        60,
      );

      // A delete still queued comes back as the update it was.
      await value('protocols.delete', { localId: created.localId });
      await value('undo.undo', {});
      expect(await value('protocols.get', { localId: created.localId })).toMatchObject({
        deleted: false,
        change: { op: 'update' },
      });
      // A delete sent: the protocol is made again, a new create sent like any other.
      await value('undo.redo', {});
      await value('sync.now', {});
      expect((await failure('protocols.get', { localId: created.localId })).kind).toBe('not-found');
      const back = await value('undo.undo', {});
      expect(back.step.kind).toBe('delete');
      expect(back.localIds[0]).not.toBe(created.localId);
      expect(await value('protocols.get', { localId: back.localIds[0]! })).toMatchObject({
        change: { op: 'create' },
        draft: { daysSupply: 60 },
      });
      await value('sync.now', {});
      const restored = await value('protocols.get', { localId: back.localIds[0]! });
      expect(restored).toMatchObject({ syncState: 'synced', change: null });
      expect(restored.server?.daysSupply).toBe(60);

      // A new change drops what could be redone.
      await value('protocols.update', { localId: back.localIds[0]!, draft });
      expect((await value('undo.state', {})).redo).toBeNull();
      expect((await failure('undo.redo', {})).kind).toBe('not-found');
    });

    it("undoes and redoes the list's columns (this desk's setting) and its filters, in order", async () => {
      const all = (await value('app.state', {})).protocolColumns;
      const noSupply = all.filter((c) => c !== 'supply');
      await value('app.setProtocolColumns', { columns: noSupply });
      const before: ProtocolListView = {
        syncStates: [],
        productId: null,
        due: null,
        sort: 'changed',
        direction: null,
      };
      const after: ProtocolListView = { ...before, syncStates: ['pending'], due: 'within-7' };
      expect(await value('undo.noteView', { before, after })).toMatchObject({
        kind: 'view',
        label: 'Filters of the protocol list',
      });
      // The same filters again are no step.
      expect(await value('undo.noteView', { before: after, after })).toBeNull();
      expect((await value('undo.state', {})).undo).toMatchObject({ kind: 'view' });

      // Newest first: the filters, then the columns, whose setting main writes again.
      expect(await value('undo.undo', {})).toMatchObject({
        step: { kind: 'view' },
        localIds: [],
        view: before,
      });
      const columns = await value('undo.undo', {});
      expect(columns).toMatchObject({
        step: { kind: 'columns', label: 'Columns of the protocol list' },
        columns: all,
      });
      expect((await value('app.state', {})).protocolColumns).toEqual(all);
      expect(await value('undo.redo', { seq: columns.step.seq })).toMatchObject({
        columns: noSupply,
      });
      expect((await value('app.state', {})).protocolColumns).toEqual(noSupply);
      expect((await value('undo.redo', {})).view).toEqual(after);
      const [last] = (await value('activity.list', { limit: 1, offset: 0 })).entries;
      expect(last).toMatchObject({ action: 'redo', detail: { step: 'view', count: 1 } });
      expect(last?.subjects.patients ?? []).toEqual([]);

      // Put back as it was, as a person would: the setting, and a step.
      await value('app.setProtocolColumns', { columns: all });
      expect((await value('undo.state', {})).undo).toMatchObject({ kind: 'columns' });
    });

    it('submits a batch and follows it; lists, reads, refreshes and cancels its orders', async () => {
      const draft = validOrderBody() as ProtocolRequest;
      const ids: string[] = [];
      for (const sourceId of ['ipc-batch-1', 'ipc-batch-2']) {
        const p = await value('protocols.create', {
          draft: { ...draft, customer: { ...draft.customer, sourceId } },
        });
        ids.push(p.localId);
      }
      const refused = await failure('batches.submit', {
        protocolLocalIds: [ids[0]!, '7a1f4c52-3a3e-4d3e-9b7c-2f1d4c5b6a70'],
      });
      expect(refused.kind).toBe('validation');
      expect(refused.fieldErrors).toEqual([
        { path: ['protocolLocalIds', 1], message: 'Unknown protocol: no such protocol' },
      ]);

      // A name is trimmed; one too long is refused with its reason, nothing sent.
      const tooLong = await failure('batches.submit', {
        protocolLocalIds: ids,
        name: 'x'.repeat(81),
      });
      expect(tooLong.kind).toBe('invalid-arguments');
      expect(tooLong.fieldErrors).toEqual([
        { path: ['name'], message: 'a batch name is at most 80 characters' },
      ]);
      const { batchId } = await value('batches.submit', {
        protocolLocalIds: ids,
        concurrency: 2,
        name: '  IPC batch  ',
      });
      await vi.waitFor(
        () =>
          expect(
            events.filter((e) => e.event === 'batch-progress').map((e) => e.payload),
          ).toContainEqual(expect.objectContaining({ batchId, state: 'done', created: 2 })),
        { timeout: 15_000 },
      );
      const [listed] = await value('batches.list', {});
      expect(listed).toMatchObject({
        id: batchId,
        concurrency: 2,
        name: 'IPC batch',
        progress: { created: 2 },
      });
      const items = await value('batches.items', { batchId });
      expect(items.map((i) => [i.seq, i.sourceId, i.state])).toEqual([
        [0, 'ipc-batch-1', 'done'],
        [1, 'ipc-batch-2', 'done'],
      ]);
      // A done batch stays done.
      expect((await value('batches.continue', { batchId })).progress.state).toBe('done');
      expect((await failure('batches.items', { batchId: ids[0]! })).kind).toBe('not-found');

      const orderId = items[0]!.orderId!;
      const { orders, total } = await value('orders.list', { sourceId: 'ipc-batch-1' });
      expect(orders.map((o) => o.id)).toEqual([orderId]);
      expect(total).toBe(1);
      // The batch's total is what the server charged for its orders.
      await vi.waitFor(async () => {
        const [again] = await value('batches.list', {});
        expect(again!.ordered.standing.orders).toBe(2);
      });
      const prices = (
        await Promise.all(items.map((i) => value('orders.get', { orderId: i.orderId! })))
      ).map((o) => Math.round(Number(o.totalPrice) * 100));
      const cents = prices.reduce((a, c) => a + c, 0);
      const [final] = await value('batches.list', {});
      expect(Math.round(Number(final!.ordered.standing.amount) * 100)).toBe(cents);
      expect(final!.ordered).toMatchObject({ cancelled: { orders: 0 }, refused: 0 });
      expect(final!.single).toBeNull();
      const searched = await value('orders.list', { search: 'ipc-batch', limit: 1 });
      expect(searched.orders).toHaveLength(1);
      expect(searched.total).toBe(2);
      const counts = await value('orders.counts', { search: 'ipc-batch' });
      expect(counts.total).toBe(2);
      expect(counts.counts).toMatchObject({ NEW: 2, CANCELLED: 0, SHIPPED: 0 });
      expect((await value('orders.get', { orderId })).status).toBe('NEW');
      // Each order knows the protocol it was made from; an order made elsewhere has none.
      expect(await value('orders.protocol', { orderId })).toEqual({
        protocol: { localId: ids[0], deleted: false },
      });
      expect(await value('orders.protocol', { orderId: 'ord_made_elsewhere' })).toEqual({
        protocol: null,
      });
      expect((await value('orders.refresh', { orderId })).id).toBe(orderId);
      expect(await value('orders.cancel', { orderId })).toMatchObject({
        ok: true,
        order: { id: orderId, status: 'CANCELLED' },
      });
      expect(await value('orders.cancel', { orderId })).toMatchObject({
        ok: false,
        reason: 'already-cancelled',
      });
      // The batch counts the cancelled order apart, out of its total; its item says so.
      const [afterCancel] = await value('batches.list', {});
      expect(afterCancel!.ordered.standing.orders).toBe(1);
      expect(Math.round(Number(afterCancel!.ordered.standing.amount) * 100)).toBe(prices[1]);
      expect(afterCancel!.ordered.cancelled.orders).toBe(1);
      expect(Math.round(Number(afterCancel!.ordered.cancelled.amount) * 100)).toBe(prices[0]);
      expect((await value('batches.items', { batchId })).map((i) => i.orderStatus)).toEqual([
        'CANCELLED',
        'NEW',
      ]);
      expect(
        (await value('orders.list', { statuses: ['CANCELLED'] })).orders.map((o) => o.id),
      ).toContain(orderId);
      expect(await value('orders.timeline', { orderId })).toEqual([
        { status: 'NEW', previous: null, seenAt: expect.any(String) },
        { status: 'CANCELLED', previous: 'NEW', seenAt: expect.any(String) },
      ]);
      expect((await value('orders.counts', { search: 'ipc-batch' })).counts).toMatchObject({
        NEW: 1,
        CANCELLED: 1,
      });
      // The export covers what the list matches, every page of it, as CSV.
      const exported = await value('orders.exportCsv', { search: 'ipc-batch' });
      expect(exported.rows).toBe(2);
      expect(exported.csv.startsWith('\uFEFFOrder ID,')).toBe(true);
      expect(exported.csv.split('\r\n').filter(Boolean)).toHaveLength(3);
      const cancelledOnly = await value('orders.exportCsv', {
        search: 'ipc-batch',
        statuses: ['CANCELLED'],
      });
      expect(cancelledOnly.rows).toBe(1);
      expect(cancelledOnly.csv).toContain(`${orderId},`);
      expect(cancelledOnly.csv).toContain(',CANCELLED,ipc-batch-1,');
      expect((await value('orders.exportCsv', { search: 'no such patient' })).rows).toBe(0);
      // A selection: exactly those orders, whatever the filters say; an unknown id is refused.
      const selection = await value('orders.exportCsv', {
        orderIds: [orderId],
        statuses: ['NEW'],
      });
      expect(selection.rows).toBe(1);
      expect(selection.csv).toContain(`${orderId},`);
      const unknown = await failure('orders.exportCsv', { orderIds: [orderId, 'ord_nope'] });
      expect(unknown.kind).toBe('not-found');
      expect(unknown.message).toContain('ord_nope');
      expect((await failure('orders.exportCsv', { orderIds: [] })).kind).toBe('invalid-arguments');
      expect((await failure('orders.timeline', { orderId: 'ord_nope' })).kind).toBe('not-found');
      expect((await failure('orders.get', { orderId: 'ord_nope' })).kind).toBe('not-found');
      await value('sync.now', {}); // the drafts reach the server: nothing left unsent
    });

    it('pauses a batch and continues it', async () => {
      const draft = validOrderBody() as ProtocolRequest;
      const p = await value('protocols.create', {
        draft: { ...draft, customer: { ...draft.customer, sourceId: 'ipc-pause-1' } },
      });
      const { batchId } = await value('batches.submit', { protocolLocalIds: [p.localId] });
      const paused = await value('batches.pause', { batchId });
      expect(['paused', 'done']).toContain(paused.progress.state);
      const continued = await value('batches.continue', { batchId });
      expect(['running', 'done']).toContain(continued.progress.state);
      await vi.waitFor(
        async () => expect((await value('batches.items', { batchId }))[0]!.state).toBe('done'),
        { timeout: 15_000 },
      );
      await value('sync.now', {}); // the draft reaches the server: nothing left unsent
    });

    it('turns notifications off and on in the app state', async () => {
      expect((await value('app.state', {})).notifications).toBe(true);
      expect(await value('app.setNotifications', { enabled: false })).toBeNull();
      expect((await value('app.state', {})).notifications).toBe(false);
      await value('app.setNotifications', { enabled: true });
      expect((await value('app.state', {})).notifications).toBe(true);
    });

    it('keeps the screen to start on: the dashboard until the user keeps protocols first', async () => {
      expect((await value('app.state', {})).startScreen).toBe('dashboard');
      expect(await value('app.setStartScreen', { screen: 'protocols' })).toBeNull();
      expect((await value('app.state', {})).startScreen).toBe('protocols');
      await value('app.setStartScreen', { screen: 'dashboard' });
      expect((await value('app.state', {})).startScreen).toBe('dashboard');
    });

    it("remembers the protocol list's columns, in the list's order", async () => {
      expect((await value('app.state', {})).protocolColumns).toEqual([
        'products',
        'supply',
        'shipping',
        'lastOrder',
        'nextRefill',
        'changed',
        'sync',
      ]);
      await value('app.setProtocolColumns', { columns: ['sync', 'products', 'sync'] });
      expect((await value('app.state', {})).protocolColumns).toEqual(['products', 'sync']);
      await value('app.setProtocolColumns', { columns: [] });
      expect((await value('app.state', {})).protocolColumns).toEqual([]);
    });

    it('imports protocols from CSV after a preview, exports the list as filtered, and gives the template', async () => {
      const template = await value('protocols.csvTemplate', {});
      expect(template.rows).toBe(2);
      const { header, rows } = readCsv(template.csv);
      const cells = rows.map((r) => r.cells.map((c) => c.replace(/^EXAMPLE-/, 'ipc-csv-')));
      const zip = header.indexOf('ZIP code');
      const days = header.indexOf('Days supply');
      const bad = cells[0]!.map((c, i) =>
        i === 0 ? 'ipc-csv-bad' : i === zip ? '123' : i === days ? '45' : c,
      );
      const csv = writeCsv(header, [...cells, bad]);

      const preview = await value('protocols.importPreview', { csv });
      expect(preview).toMatchObject({ total: 3, ready: 2, catalogChecked: true });
      expect(preview.good.map((g) => [g.row, g.sourceId])).toEqual([
        [2, 'ipc-csv-001'],
        [3, 'ipc-csv-002'],
      ]);
      expect(preview.bad).toEqual([
        {
          row: 4,
          label: expect.stringContaining('(ipc-csv-bad)'),
          reasons: [
            { column: 'Days supply', message: '"45" is not one of 30, 60 or 90' },
            { column: 'ZIP code', message: 'must be exactly 5 digits' },
          ],
        },
      ]);
      expect((await value('protocols.count', { search: 'ipc-csv' })).total).toBe(0);

      // The file must still give what the user saw.
      const moved = await failure('protocols.importCommit', { csv, expectedReady: 3 });
      expect(moved.kind).toBe('conflict');
      expect(await value('protocols.importCommit', { csv, expectedReady: 2 })).toEqual({
        created: 2,
        skipped: 1,
      });
      const listed = await value('protocols.list', { search: 'ipc-csv', sort: 'name' });
      expect(listed.items.map((p) => [p.sourceId, p.syncState])).toEqual([
        ['ipc-csv-001', 'pending'],
        ['ipc-csv-002', 'pending'],
      ]);

      const exported = await value('protocols.exportCsv', {
        search: 'ipc-csv',
        syncStates: ['pending'],
        sort: 'name',
      });
      expect(exported.rows).toBe(2);
      expect(readCsv(exported.csv).rows.map((r) => r.cells[0])).toEqual([
        'ipc-csv-001',
        'ipc-csv-002',
      ]);

      const notCsv = await failure('protocols.importPreview', { csv: 'Name;Age\r\nAda;36\r\n' });
      expect(notCsv.kind).toBe('validation');
      expect(notCsv.message).toMatch(/separated by semicolons/);
      expect(notCsv.fieldErrors[0]?.path).toEqual(['csv']);
      const oversize = await failure('protocols.importCommit', {
        csv: 'x'.repeat(CSV_TEXT_MAX + 1),
      });
      expect(oversize.kind).toBe('invalid-arguments');
      expect(oversize.message).toMatch(/the file is too large/);
      await value('sync.now', {}); // the drafts reach the server: nothing left unsent
    });

    it('lists protocols by name with totals, selects every match, and duplicates one for another patient', async () => {
      const draft = validOrderBody() as ProtocolRequest;
      const made: string[] = [];
      for (const [firstName, lastName] of [
        ['Yara', 'Sortwell'],
        ['Abe', 'Sortwell'],
        ['Cleo', 'Sortby'],
      ] as const) {
        const p = await value('protocols.create', {
          draft: {
            ...draft,
            customer: {
              ...draft.customer,
              firstName,
              lastName,
              sourceId: `ipc-sort-${firstName}-${lastName}`,
            },
          },
        });
        made.push(p.localId);
      }
      const first = await value('protocols.list', { search: 'sort', sort: 'name', limit: 2 });
      expect(first.items.map((p) => p.customerName)).toEqual(['Cleo Sortby', 'Abe Sortwell']);
      expect(await value('protocols.count', { search: 'sort' })).toEqual({ total: 3 });
      const second = await value('protocols.list', {
        search: 'sort',
        sort: 'name',
        limit: 2,
        cursor: first.nextCursor,
      });
      expect(second.items.map((p) => p.customerName)).toEqual(['Yara Sortwell']);
      expect(second.nextCursor).toBeNull();
      // A column's sort, the other way, with each row's columns; never ordered: no refill due.
      const bySupply = await value('protocols.list', {
        search: 'sort',
        sort: 'supply',
        direction: 'desc',
      });
      expect(bySupply.items).toHaveLength(3);
      expect(bySupply.items[0]!.columns).toMatchObject({
        daysSupply: draft.daysSupply,
        lastOrder: null,
      });
      expect(bySupply.items[0]!.columns.products.length).toBe(draft.lineItems.length);
      expect((await value('protocols.count', { search: 'sort', due: 'within-30' })).total).toBe(0);
      const pending = await value('protocols.count', { search: 'sort', syncStates: ['pending'] });
      expect(pending.total).toBe(3);
      expect(
        (await value('protocols.count', { search: 'sort', syncStates: ['in-doubt'] })).total,
      ).toBe(0);
      expect(await value('protocols.matchingIds', { search: 'sortwell' })).toEqual({
        localIds: [made[1], made[0]],
      });
      // 'changed' is the last local change first: the oldest, once edited, comes first, in
      // the list, across its pages and in matchingIds.
      const before = await value('protocols.list', { search: 'sort', limit: 3 });
      const latest = Math.max(...before.items.map((p) => p.localUpdatedAt));
      while (Date.now() <= latest) await new Promise((resolve) => setTimeout(resolve, 1));
      await value('protocols.update', {
        localId: made[0]!,
        draft: {
          ...draft,
          customer: {
            ...draft.customer,
            firstName: 'Yara',
            lastName: 'Sortwell',
            sourceId: 'ipc-sort-Yara',
          },
        },
      });
      const changed = await value('protocols.list', { search: 'sort', limit: 1 });
      expect(changed.items.map((p) => p.localId)).toEqual([made[0]]);
      expect(changed.nextCursor).toMatch(/^changed:desc:\d+:\d+$/);
      const rest = await value('protocols.list', {
        search: 'sort',
        limit: 5,
        cursor: changed.nextCursor,
      });
      expect(rest.items.map((p) => p.localId).sort()).toEqual([made[1], made[2]].sort());
      expect((await value('protocols.matchingIds', { search: 'sortwell' })).localIds).toEqual([
        made[0],
        made[1],
      ]);

      const copy = await value('protocols.duplicate', {
        localId: made[0]!,
        customer: { ...draft.customer, firstName: 'Nia', lastName: 'Copied', sourceId: 'ipc-copy' },
      });
      expect(copy).toMatchObject({
        customerName: 'Nia Copied',
        sourceId: 'ipc-copy',
        syncState: 'pending',
        change: { op: 'create' },
      });
      expect(copy.localId).not.toBe(made[0]);
      expect(copy.draft.lineItems).toEqual(draft.lineItems);
      const gone = await failure('protocols.duplicate', {
        localId: '7a1f4c52-3a3e-4d3e-9b7c-2f1d4c5b6a70',
        customer: draft.customer,
      });
      expect(gone.kind).toBe('not-found');
      await value('sync.now', {}); // the drafts reach the server: nothing left unsent
      expect((await value('protocols.get', { localId: copy.localId })).syncState).toBe('synced');
    });

    it('reviews a batch, orders one now from a protocol and from scratch, and lists refills due', async () => {
      const draft = validOrderBody() as ProtocolRequest;
      const p = await value('protocols.create', {
        draft: { ...draft, customer: { ...draft.customer, sourceId: 'ipc-refill-1' } },
      });
      const unknown = '7a1f4c52-3a3e-4d3e-9b7c-2f1d4c5b6a70';
      const review = await value('batches.review', { protocolLocalIds: [p.localId, unknown] });
      expect(review.items).toEqual([
        expect.objectContaining({
          localId: p.localId,
          sourceId: 'ipc-refill-1',
          estimatedTotal: expect.stringMatching(/^\d+\.\d{2}$/),
          problems: [],
          refusals: [],
        }),
        expect.objectContaining({ localId: unknown, estimatedTotal: null }),
      ]);
      expect(review.items[1]!.problems).toHaveLength(1);
      expect(review.estimatedTotal).toBe(review.items[0]!.estimatedTotal);
      // The partner's discount is read before the first estimate: the embedded sandbox's own price.
      expect(review).toMatchObject({ totalUnknown: null, exact: true });
      // Order now's confirmation: the same review as a batch of one, and what the order holds.
      const one = await value('orders.review', { from: 'protocol', protocolLocalId: p.localId });
      expect(one).toMatchObject({
        items: [review.items[0]],
        estimatedTotal: review.items[0]!.estimatedTotal,
        order: { sourceId: 'ipc-refill-1', lines: [{ productId: 1001 }, { productId: 1035 }] },
      });
      const scratchReview = await failure('orders.review', {
        from: 'scratch',
        draft: {
          ...draft,
          lineItems: [
            {
              productId: 987_654,
              quantity: 1,
              administration: { morning: 1, afternoon: 0, evening: 0, sleep: 0 },
            },
          ],
        },
      });
      expect(scratchReview).toMatchObject({
        kind: 'validation',
        fieldErrors: [{ path: ['draft', 'lineItems', 0, 'packDescription'] }],
      });
      expect((await value('catalog.pricing', {})).known).toBe(true);

      const done = async (batchId: string) => {
        await vi.waitFor(
          async () => expect((await value('batches.items', { batchId }))[0]!.state).toBe('done'),
          { timeout: 15_000 },
        );
        return (await value('batches.items', { batchId }))[0]!;
      };
      const fromProtocol = await value('orders.create', {
        from: 'protocol',
        protocolLocalId: p.localId,
      });
      expect((await done(fromProtocol.batchId)).protocolLocalId).toBe(p.localId);
      const scratch = await value('orders.create', {
        from: 'scratch',
        draft: { ...draft, customer: { ...draft.customer, sourceId: 'ipc-scratch-1' } },
      });
      const scratchItem = await done(scratch.batchId);
      expect(scratchItem).toMatchObject({
        protocolLocalId: null,
        customerName: 'Ada Lovelace',
        sourceId: 'ipc-scratch-1',
      });
      const incomplete = await failure('orders.create', {
        from: 'scratch',
        draft: {
          ...draft,
          lineItems: [
            {
              productId: 987_654,
              quantity: 1,
              administration: { morning: 1, afternoon: 0, evening: 0, sleep: 0 },
            },
          ],
        },
      });
      expect(incomplete.kind).toBe('validation');
      expect(incomplete.fieldErrors[0]?.path).toEqual(['draft', 'lineItems', 0, 'packDescription']);
      const noProtocol = await failure('orders.create', {
        from: 'protocol',
        protocolLocalId: unknown,
      });
      expect(noProtocol.kind).toBe('not-found');

      const refills = await value('refills.due', { withinDays: 60 });
      const mine = refills.due.find((r) => r.protocol.localId === p.localId);
      expect(mine).toMatchObject({ daysSupply: 30, lastOrderId: expect.any(String) });
      expect(mine!.daysLeft).toBeGreaterThanOrEqual(29);
      expect(mine!.daysLeft).toBeLessThanOrEqual(30);
      expect(refills.neverOrdered.map((x) => x.localId)).not.toContain(p.localId);
      expect(
        (await value('refills.due', { withinDays: 0 })).due.map((r) => r.protocol.localId),
      ).not.toContain(p.localId);
      // The dashboard counts the same orders, batches and refill from the mirror.
      const dashboard = await value('dashboard.summary', {});
      expect(dashboard.months).toHaveLength(12);
      expect(dashboard.months.at(-1)!.standing.orders).toBeGreaterThanOrEqual(2);
      expect(dashboard.batches).toMatchObject({ created: expect.any(Number), refused: 0 });
      expect(dashboard.batches.batches).toBeGreaterThanOrEqual(2);
      expect(dashboard.refills.days.reduce((n, d) => n + d.refills, 0)).toBeGreaterThanOrEqual(1);
      expect(dashboard.topByQuantity.map((x) => x.productId)).toEqual(
        expect.arrayContaining([1001, 1035]),
      );
      await value('sync.now', {}); // the draft reaches the server: nothing left unsent
    });

    it('lists patients, shows one whole, and orders a past order again', async () => {
      const draft = validOrderBody() as ProtocolRequest;
      const body = { ...draft, customer: { ...draft.customer, sourceId: 'ipc-patient-1' } };
      const p = await value('protocols.create', { draft: body });
      const done = async (batchId: string) => {
        await vi.waitFor(
          async () => expect((await value('batches.items', { batchId }))[0]!.state).toBe('done'),
          { timeout: 15_000 },
        );
        return (await value('batches.items', { batchId }))[0]!;
      };
      const first = await done(
        (await value('orders.create', { from: 'protocol', protocolLocalId: p.localId })).batchId,
      );
      const listed = await value('patients.list', { search: 'ipc-patient-1' });
      expect(listed.total).toBe(1);
      expect(listed.patients[0]).toMatchObject({
        sourceId: 'ipc-patient-1',
        name: 'Ada Lovelace',
        protocols: 1,
        orders: 1,
      });
      expect((await value('patients.list', { search: 'ipc-patient-1 nobody' })).total).toBe(0);

      const patient = await value('patients.get', { sourceId: 'ipc-patient-1' });
      expect(patient.protocols.map((x) => x.protocol.localId)).toEqual([p.localId]);
      expect(patient.protocols[0]).toMatchObject({ daysSupply: 30, products: expect.any(Array) });
      expect(patient.orders).toEqual([
        expect.objectContaining({ id: first.orderId, protocolLocalId: p.localId }),
      ]);
      expect(patient.supply).toMatchObject({ lastOrderId: first.orderId, daysSupply: 30 });

      // The past order again, as it was: the same review as one order from scratch.
      const again = await value('orders.review', { from: 'order', orderId: first.orderId! });
      expect(again.order).toMatchObject({ sourceId: 'ipc-patient-1', daysSupply: 30 });
      expect(again.items[0]!.repeats.map((r) => r.orderId)).toContain(first.orderId);
      const second = await done(
        (
          await value('orders.create', {
            from: 'order',
            orderId: first.orderId!,
            allowDuplicateOf: [first.orderId!],
          })
        ).batchId,
      );
      expect(second).toMatchObject({ protocolLocalId: null, sourceId: 'ipc-patient-1' });
      await vi.waitFor(async () =>
        expect((await value('patients.get', { sourceId: 'ipc-patient-1' })).orders).toHaveLength(2),
      );
      expect((await failure('orders.review', { from: 'order', orderId: 'ord_nope' })).kind).toBe(
        'not-found',
      );
      expect((await failure('patients.get', { sourceId: 'nobody-here' })).kind).toBe('not-found');

      // The command palette finds the patient, the protocol and both orders, by ID or by name.
      const found = await value('palette.search', { text: 'ipc-patient-1' });
      expect(found.patients).toEqual([{ sourceId: 'ipc-patient-1', name: 'Ada Lovelace' }]);
      expect(found.protocols.map((x) => x.localId)).toEqual([p.localId]);
      expect(found.orders.map((o) => o.id)).toEqual([second.orderId, first.orderId]);
      const byOrderId = await value('palette.search', { text: first.orderId!.slice(-8) });
      expect(byOrderId.orders.map((o) => o.id)).toEqual([first.orderId]);
      expect(await value('palette.search', { text: 'ipc-patient-1 nobody' })).toEqual({
        patients: [],
        protocols: [],
        orders: [],
        recentOnly: false,
      });
      // Two letters look through the newest protocols and orders only, and say so.
      const short = await value('palette.search', { text: 'ad' });
      expect(short.recentOnly).toBe(true);
      expect(short.patients).toContainEqual({ sourceId: 'ipc-patient-1', name: 'Ada Lovelace' });
      await value('sync.now', {});
    });

    it('stops a save whose Patient ID names another person, and takes the answer', async () => {
      const draft = validOrderBody() as ProtocolRequest;
      const ada = { ...draft, customer: { ...draft.customer, sourceId: 'ipc-shared-1001' } };
      await value('protocols.create', { draft: ada });
      const dup = { ...ada, customer: { ...ada.customer, firstName: 'Dup', lastName: 'Test' } };
      const stopped = await failure('protocols.create', { draft: dup });
      expect(stopped).toMatchObject({
        kind: 'conflict',
        patientIdClash: {
          sourceId: 'ipc-shared-1001',
          name: 'Dup Test',
          others: [expect.objectContaining({ name: 'Ada Lovelace', protocols: 1 })],
          suggestedId: 'ipc-shared-1002',
        },
      });
      const person = stopped.patientIdClash!.others[0]!.key;
      const saved = await value('protocols.create', {
        draft: dup,
        patientId: { choice: 'use-stored', person },
      });
      expect(saved.draft.customer).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace' });
      const listed = await value('patients.list', { search: 'ipc-shared' });
      expect(listed.patients).toEqual([
        expect.objectContaining({ name: 'Ada Lovelace', protocols: 2, sharedId: false }),
      ]);
      expect((await value('patients.sharedIds', {})).ids.map((i) => i.sourceId)).not.toContain(
        'ipc-shared-1001',
      );
      // A store that already holds two names under one ID (old data): the review untangles it.
      target.core.store.protocols.createDraft(dup);
      const [shared] = (await value('patients.sharedIds', {})).ids.filter(
        (i) => i.sourceId === 'ipc-shared-1001',
      );
      expect(shared!.people.map((p) => [p.name, p.protocols])).toEqual(
        expect.arrayContaining([
          ['Ada Lovelace', 2],
          ['Dup Test', 1],
        ]),
      );
      const dupKey = shared!.people.find((p) => p.name === 'Dup Test')!.key;
      expect(
        await value('patients.untangle', {
          choice: 'new-id',
          sourceId: 'ipc-shared-1001',
          person: dupKey,
          newSourceId: shared!.suggestedId,
        }),
      ).toEqual({ changed: 1 });
      expect((await value('patients.list', { search: 'Dup Test' })).patients).toEqual([
        expect.objectContaining({ sourceId: 'ipc-shared-1002', sharedId: false }),
      ]);
    });

    it("retries a rejected item from its protocol's current draft and refuses any other", async () => {
      const draft = validOrderBody() as ProtocolRequest;
      const p = await value('protocols.create', {
        draft: { ...draft, customer: { ...draft.customer, sourceId: 'ipc-retry-1' } },
      });
      // A batch whose one item the server refused (made so in the store: the refusal itself is
      // covered in test/integration/main/bulk/bulk-retry.test.ts). Synchronous: the runner sees none of it.
      const store = target.core.store;
      const made = store.batches.insertBatch(
        [{ protocolLocalId: p.localId, request: CreateOrderRequest.parse(draft) }],
        { concurrency: 1 },
      );
      store.batches.setState(made.id, 'paused');
      store.jobs.settle(store.jobs.atBatchSeq(made.id, 0)!.id, ['queued'], {
        to: 'rejected',
        error: { kind: 'detail', status: 422, detail: 'refused for the test' },
      });
      expect(store.batches.finishIfComplete(made.id)).toBe(true);
      expect((await value('batches.items', { batchId: made.id }))[0]!.state).toBe('rejected');

      const retried = await value('batches.retryItem', { batchId: made.id, seq: 0 });
      expect(retried).toMatchObject({ id: made.id, finishedAt: null });
      await vi.waitFor(
        async () =>
          expect((await value('batches.items', { batchId: made.id }))[0]!.state).toBe('done'),
        { timeout: 15_000 },
      );
      const again = await failure('batches.retryItem', { batchId: made.id, seq: 0 });
      expect(again.kind).toBe('conflict');
      expect(again.message).toMatch(/Only a rejected item/);
      const noItem = await failure('batches.retryItem', { batchId: made.id, seq: 5 });
      expect(noItem.kind).toBe('not-found');
      await value('sync.now', {});
    });

    it('serves the catalog from the mirror with filters, paging and totals', async () => {
      const all = await value('catalog.products', {});
      expect(all.products.length).toBeGreaterThan(0);
      expect(all.total).toBeGreaterThanOrEqual(all.products.length);
      const page = await value('catalog.products', { limit: 2, offset: 1 });
      expect(page.products.map((p) => p.id)).toEqual(all.products.slice(1, 3).map((p) => p.id));
      expect(page.total).toBe(all.total);
      const first = all.products[0]!;
      const word = first.name.split(/\s+/)[0]!.toLowerCase();
      const found = await value('catalog.products', { search: word, status: [first.status] });
      expect(found.products.map((p) => p.id)).toContain(first.id);
      expect(found.total).toBe(found.products.length);
      for (const p of found.products) {
        expect(p.name.toLowerCase()).toContain(word);
        expect(p.status).toBe(first.status);
      }
      const none = await value('catalog.products', { search: 'zz-no-such-product-zz' });
      expect(none).toEqual({ products: [], total: 0 });
      expect(await value('catalog.product', { id: first.id })).toEqual(first);
      const missing = await failure('catalog.product', { id: 987_654_321 });
      expect(missing.kind).toBe('not-found');
      const methods = await value('catalog.shippingMethods', {});
      expect(methods.length).toBeGreaterThan(0);
    });

    it('pushes order-status and batch-progress events as the contract describes them, and no malformed one', async () => {
      const ofOrder = (orderId: string) =>
        events
          .filter((e) => e.event === 'order-status')
          .map((e) => e.payload as { orderId: string })
          .filter((p) => p.orderId === orderId);
      const session = target.core.session!;
      // A real order-status: an order created on the server, then cancelled through the session.
      const created = await session.client.createOrder(CreateOrderRequest.parse(validOrderBody()));
      const outcome = await session.orders.cancelOrder(created.id);
      expect(outcome.ok).toBe(true);
      await vi.waitFor(() =>
        expect(ofOrder(created.id)).toEqual([
          expect.objectContaining({ orderId: created.id, previous: null, status: 'CANCELLED' }),
        ]),
      );
      const orderStatus = ofOrder(created.id)[0]!;
      expect(IPC_EVENTS['order-status'].parse(orderStatus)).toEqual(orderStatus);

      // batch-progress as the bulk submitter emits it; then payloads main must not send.
      const progress = {
        batchId: 'batch_ipc',
        state: 'running' as const,
        total: 3,
        queued: 1,
        sending: 1,
        inDoubt: 0,
        created: 1,
        rejected: 0,
        held: 0,
        possibleDuplicates: 0,
        repeatsCancelled: 0,
      };
      target.core.bus.emit('batch-progress', progress);
      const bus = target.core.bus as unknown as { emit(name: string, payload: unknown): void };
      bus.emit('batch-progress', { ...progress, batchId: 'batch_bad', total: -1 });
      bus.emit('order-status', { orderId: 'ord_bad', status: 'LOST' });
      bus.emit('outbox-count', { pending: 'many' });
      target.core.bus.emit('batch-progress', { ...progress, state: 'done', queued: 0, created: 3 });
      const ofTestBatch = (list: { event: string; payload: unknown }[]) =>
        list
          .filter((e) => e.event === 'batch-progress')
          .map((e) => e.payload as { batchId: string })
          .filter((p) => p.batchId.startsWith('batch_'));
      await vi.waitFor(() =>
        expect(ofTestBatch(events)).toEqual([
          progress,
          { ...progress, state: 'done', queued: 0, created: 3 },
        ]),
      );
      // Main dropped them before sending: they never reached the wire.
      expect(JSON.stringify(sentEvents)).not.toMatch(/batch_bad|ord_bad|"many"/);
      expect(ofTestBatch(sentEvents)).toHaveLength(2);
    });

    it('reads and updates partner settings; reveals and rotates the webhook secret only when asked', async () => {
      const settings = await value('settings.get', {});
      expect(settings.id).toBeTruthy();
      // The settings answered are what estimates use from now on.
      expect(target.core.session!.connection.kind).toBe('embedded');
      expect(await value('catalog.pricing', {})).toMatchObject({
        known: true,
        discount: settings.discount,
        discountValue: settings.discountValue,
      });
      const updated = await value('settings.update', {
        phone: '+1 503 555 0199',
        webhookUrl: 'https://clinic.example/hooks/order-desk',
      });
      expect(updated).toMatchObject({
        phone: '+1 503 555 0199',
        webhookUrl: 'https://clinic.example/hooks/order-desk',
      });
      const revealed = await value('settings.revealWebhookSecret', {});
      expect(revealed.secret).toMatch(/^whsec_/);
      const rotated = await value('settings.rotateWebhookSecret', { confirm: true });
      expect(rotated.secret).toMatch(/^whsec_/);
      expect(rotated.secret).not.toBe(revealed.secret);
      expect((await value('settings.revealWebhookSecret', {})).secret).toBe(rotated.secret);
      const unconfirmed = await failure('settings.rotateWebhookSecret', {});
      expect(unconfirmed.kind).toBe('invalid-arguments');
      expect(unconfirmed.fieldErrors[0]?.path).toEqual(['confirm']);
    });

    it('tests partner credentials: right, wrong, unreachable, malformed', async () => {
      expect(await value('connections.test', partnerInput(partner.clientSecret))).toEqual({
        partnerName: expect.any(String),
      });
      const wrong = await failure('connections.test', partnerInput('wrong-secret-0123456789'));
      expect(wrong.kind).toBe('unauthorized');
      expect(wrong.message).toMatch(/client id or secret was rejected/);
      const port = await freePortThatRefuses();
      const unreachable = await failure('connections.test', {
        ...partnerInput(partner.clientSecret),
        baseUrl: `http://127.0.0.1:${port}/v1`,
        authUrl: `http://127.0.0.1:${port}`,
      });
      expect(unreachable.kind).toBe('network');
      const malformed = await failure('connections.test', {
        ...partnerInput(partner.clientSecret),
        baseUrl: 'not a url',
        authUrl: 'http://clinic.example',
      });
      expect(malformed.kind).toBe('invalid-arguments');
      expect(malformed.fieldErrors.map((f) => f.path)).toEqual([['baseUrl'], ['authUrl']]);
    });

    it('practice mode: off until switched on, moves an order, changes a protocol, goes offline and back', async () => {
      expect(await value('practice.state', {})).toEqual({
        available: true,
        enabled: false,
        offline: false,
        server: 'normal',
        fulfillment: { paused: false, speed: 'normal' },
      });
      const { orders } = await value('orders.list', { limit: 100 });
      const order = orders.find((o) => !['DELIVERED', 'CANCELLED'].includes(o.status))!;
      expect(order).toBeDefined();
      const off = await failure('practice.advanceOrder', { orderId: order.id, to: 'SHIPPED' });
      expect(off).toMatchObject({ kind: 'conflict', message: expect.stringMatching(/is off/) });

      expect(await value('practice.setEnabled', { enabled: true })).toMatchObject({
        enabled: true,
      });
      const shipped = await value('practice.advanceOrder', { orderId: order.id, to: 'SHIPPED' });
      expect(shipped.status).toBe('SHIPPED');
      expect(shipped.fulfillmentInfo?.trackingNumber).toBeTruthy();
      const back = await failure('practice.advanceOrder', { orderId: order.id, to: 'PROCESSING' });
      expect(back).toMatchObject({ kind: 'conflict', message: expect.stringMatching(/not ahead/) });
      const unknown = await failure('practice.advanceOrder', { orderId: 'ord_none', to: 'FILLED' });
      expect(unknown.kind).toBe('not-found');

      const { items } = await value('protocols.list', { limit: 50 });
      const protocol = items.find((p) => p.serverId !== null && !p.deleted)!;
      const changed = await value('practice.changeProtocol', { protocolId: protocol.serverId! });
      expect(changed.protocolId).toBe(protocol.serverId);
      expect((await failure('practice.changeProtocol', { protocolId: 'prt_none' })).kind).toBe(
        'not-found',
      );

      const discontinued = await value('practice.setProductStatus', {
        productId: 1001,
        status: 'DISCONTINUED',
      });
      expect(discontinued).toMatchObject({ productId: 1001, status: 'DISCONTINUED' });
      expect((await value('catalog.product', { id: 1001 })).status).toBe('DISCONTINUED');
      await value('practice.setProductStatus', { productId: 1001, status: 'ACTIVE' });
      expect((await value('catalog.product', { id: 1001 })).status).toBe('ACTIVE');
      const noProduct = await failure('practice.setProductStatus', {
        productId: 999_999,
        status: 'BACKORDERED',
      });
      expect(noProduct.kind).toBe('not-found');

      expect(await value('practice.setOffline', { offline: true })).toMatchObject({
        offline: true,
      });
      expect((await value('app.state', {})).online).toBe(false);
      const away = await failure('practice.advanceOrder', { orderId: order.id, to: 'DELIVERED' });
      expect(away.message).toMatch(/offline/);
      expect(await value('practice.setOffline', { offline: false })).toMatchObject({
        offline: false,
      });
      expect((await value('app.state', {})).online).toBe(true);
      expect(await value('practice.setServer', { server: 'failing' })).toMatchObject({
        server: 'failing',
      });
      expect(await value('practice.setServer', { server: 'slow' })).toMatchObject({
        server: 'slow',
      });
      // Its own fulfillment: paused, slower, and every order on its way one step at once.
      expect(await value('practice.setFulfillment', { paused: true, speed: 'slow' })).toMatchObject(
        { fulfillment: { paused: true, speed: 'slow' } },
      );
      // The order shipped above is on its way to DELIVERED.
      expect((await value('practice.stepOrders', {})).moved).toBeGreaterThan(0);
      expect(await value('practice.setEnabled', { enabled: false })).toEqual({
        available: true,
        enabled: false,
        offline: false,
        server: 'normal',
        fulfillment: { paused: false, speed: 'normal' },
      });
    });

    it('connects, activates and removes connections, secrets in the keychain only', async () => {
      const connected = await value('connections.connect', partnerInput(partner.clientSecret));
      expect(connected).toMatchObject({ kind: 'partner-sandbox', isActive: true });
      expect(await credentials.get(secretAccount(connected))).toBe(partner.clientSecret);
      const list = await value('connections.list', {});
      expect(list.map((c) => [c.id, c.isActive])).toEqual([
        [EMBEDDED_CONNECTION_ID, false],
        [connected.id, true],
      ]);
      await vi.waitFor(() =>
        expect(events.filter((e) => e.event === 'connection-changed').at(-1)?.payload).toEqual({
          connection: connected,
        }),
      );
      const busy = await failure('connections.remove', { id: connected.id });
      expect(busy.kind).toBe('conflict');
      const unknown = await failure('connections.activate', { id: 'conn_nope' });
      expect(unknown.kind).toBe('not-found');

      // Issue 12: the app says where secrets are kept (this suite's store is the memory one).
      expect((await value('app.state', {})).secretStorage).toBe('memory');
      // Issue 12: a secret missing from the keychain is said as such, and can be entered again.
      await credentials.delete(secretAccount(connected));
      const listed = await value('connections.list', {});
      expect(listed.find((c) => c.id === connected.id)?.secretMissing).toBe(true);
      expect(listed.find((c) => c.id === EMBEDDED_CONNECTION_ID)?.secretMissing).toBe(false);
      await value('connections.activate', { id: connected.id }); // restarts the session
      const missing = await failure('settings.get', {});
      expect(missing.kind).toBe('keychain');
      expect(missing.message).toMatch(/is missing from the keychain/);
      expect(missing.message).toMatch(/Nothing was sent to the server/);
      const { clientSecret: _secret, ...fields } = partnerInput(partner.clientSecret);
      const noSecret = await failure('connections.update', { id: connected.id, ...fields });
      expect(noSecret.kind).toBe('keychain');
      const updated = await value('connections.update', {
        id: connected.id,
        ...partnerInput(partner.clientSecret),
      });
      expect(updated).toMatchObject({ id: connected.id, isActive: true });
      expect(await credentials.get(secretAccount(connected))).toBe(partner.clientSecret);
      expect((await value('settings.get', {})).name).toBeTruthy();
      // Adding it again (same label) updates the saved one: no duplicate.
      const again = await value('connections.connect', partnerInput(partner.clientSecret));
      expect(again.id).toBe(connected.id);
      expect(
        (await value('connections.list', {})).filter((c) => c.label === 'Partner sandbox'),
      ).toHaveLength(1);
      // Renaming keeps the stored secret when none is given.
      const renamed = await value('connections.update', {
        id: connected.id,
        ...fields,
        label: 'Clinic partner sandbox',
      });
      expect(renamed.label).toBe('Clinic partner sandbox');
      expect(await credentials.get(secretAccount(connected))).toBe(partner.clientSecret);
      const embeddedEdit = await failure('connections.update', {
        id: EMBEDDED_CONNECTION_ID,
        ...fields,
      });
      expect(embeddedEdit.kind).toBe('conflict');

      const back = await value('connections.activate', { id: EMBEDDED_CONNECTION_ID });
      expect(back).toMatchObject({ id: EMBEDDED_CONNECTION_ID, isActive: true });
      // Before removing: what would be deleted (its own store file; the active one is refused).
      expect((await failure('connections.removal', { id: EMBEDDED_CONNECTION_ID })).kind).toBe(
        'conflict',
      );
      const removal = await value('connections.removal', { id: connected.id });
      expect(removal).toMatchObject({
        id: connected.id,
        label: 'Clinic partner sandbox',
        storeFile: join(dir, 'connections', `${connected.id}.db`),
        unsentChanges: 0,
        unfinishedBatches: 0,
      });
      expect(removal.bytes).toBeGreaterThan(0);
      expect(existsSync(removal.storeFile)).toBe(true);
      expect(await value('connections.remove', { id: connected.id })).toEqual({ removed: true });
      expect(existsSync(removal.storeFile)).toBe(false);
      // A notice that is not (or no longer) shown: dismissing it changes nothing.
      expect(await value('app.dismissNotice', { id: 'no-such-notice' })).toBeNull();
      // The window says it is shown and in use: the poller goes fast (nothing else answers).
      expect(await value('app.presence', { visible: true, input: true })).toBeNull();
      expect(await value('connections.remove', { id: connected.id })).toEqual({ removed: false });
      expect(await credentials.get(secretAccount(connected))).toBeNull();
    });

    it('keeps the update settings, validates the feed URL, and updates only where there is an updater', async () => {
      const initial = await value('updates.get', {});
      expect(initial).toMatchObject({
        settings: { enabled: false, feedUrl: null },
        phase: 'off',
        supported: target.updater !== null,
        batchRunning: false,
      });
      const bad = await failure('updates.configure', {
        enabled: true,
        feedUrl: 'http://updates.example.com/',
      });
      expect(bad.kind).toBe('invalid-arguments');
      expect(bad.fieldErrors).toEqual([
        {
          path: ['feedUrl'],
          message: 'an https URL (plain http only for 127.0.0.1, when testing)',
        },
      ]);
      const noFeed = await failure('updates.configure', { enabled: true, feedUrl: null });
      expect(noFeed.fieldErrors).toEqual([
        { path: ['feedUrl'], message: 'required to turn updates on' },
      ]);
      expect((await failure('updates.check', {})).kind).toBe(
        target.updater ? 'conflict' : 'unavailable',
      );

      const feedUrl = 'https://updates.example.com/order-desk/';
      const updater = target.updater;
      if (updater) updater.nextCheck = { version: '9.9.9' };
      const on = await value('updates.configure', { enabled: true, feedUrl });
      expect(on.settings).toEqual({ enabled: true, feedUrl });
      expect((await value('updates.get', {})).settings).toEqual({ enabled: true, feedUrl });
      // Nothing is ready to install on either transport.
      expect(await failure('updates.install', {})).toMatchObject({
        kind: 'conflict',
        message: 'No update is ready to install.',
      });

      if (!updater) {
        // The browser host: settings only; no check, no install.
        expect((await failure('updates.check', {})).message).toMatch(/installed desktop app/);
      } else {
        expect(updater.feedUrl).toBe(feedUrl);
        await vi.waitFor(() => expect(updater.downloading).toBe(true));
        updater.progress(50);
        updater.finishDownload();
        await vi.waitFor(() =>
          expect(
            events.filter((e) => e.event === 'update-status').map((e) => e.payload),
          ).toContainEqual(expect.objectContaining({ phase: 'ready', version: '9.9.9' })),
        );
        expect(
          events.filter((e) => e.event === 'update-status').map((e) => e.payload),
        ).toContainEqual(expect.objectContaining({ phase: 'downloading', percent: 50 }));
        // Ready: a check is not run again; the install goes ahead (no batch runs now).
        expect((await value('updates.check', {})).phase).toBe('ready');
        expect(await value('updates.install', {})).toBeNull();
        expect(updater.calls.at(-1)).toBe('quitAndInstall silent=false restart=true');
      }
      const off = await value('updates.configure', { enabled: false, feedUrl });
      expect(off).toMatchObject({ phase: 'off', settings: { enabled: false, feedUrl } });
    });

    it('answered every channel with a value of its result schema', () => {
      const answeredOk = new Set(answers.filter((a) => a.result.ok).map((a) => a.channel));
      // The browser host: without an updater a check and an install are always refused, and
      // its print dialog saves PDFs, so schedule.savePdf is refused too.
      const refusedHere: IpcChannel[] = target.updater
        ? []
        : ['schedule.savePdf', 'updates.check', 'updates.install'];
      expect(IPC_CHANNELS.filter((c) => !answeredOk.has(c))).toEqual(refusedHere);
    });

    it('never sends a secret except in revealWebhookSecret and rotateWebhookSecret', async () => {
      const embeddedSecret = await credentials.get(
        secretAccount({ id: EMBEDDED_CONNECTION_ID, clientId: EMBEDDED_CLIENT_ID }),
      );
      expect(embeddedSecret).toBeTruthy();
      const webhookSecrets = answers
        .filter((a) => a.channel.endsWith('WebhookSecret') && a.result.ok)
        .map((a) => (a.result as { value: { secret: string } }).value.secret);
      const secrets = [
        embeddedSecret!,
        partner.clientSecret,
        'wrong-secret-0123456789',
        ...webhookSecrets,
      ];
      const sent = [...answers.filter((a) => !a.channel.endsWith('WebhookSecret')), ...events].map(
        (x) => JSON.stringify(x),
      );
      expect(sent.length).toBeGreaterThan(20);
      for (const text of sent) {
        for (const secret of secrets) expect(text).not.toContain(secret);
        expect(text).not.toMatch(/whsec_|bearer\s/i);
      }
    });

    // Last: by now every read channel was called on a store holding what the tests above made.
    // One transport traces (the Electron one): the SQL is the same behind both.
    if (transport === 'electron')
      it('reads only tables of the subjects their channel declares, each read channel sampled', () => {
        const reads = target.reads!;
        const unsampled = READ_CHANNELS.filter((c) => !reads.some((r) => r.channel === c && r.ok));
        expect(unsampled, 'read channels no test above called with success').toEqual([]);
        const undeclared = new Set<string>();
        for (const { channel, tables } of reads) {
          for (const table of tables) {
            const subject = SUBJECT_OF_TABLE[table];
            if (!subject || !subjectsOfRead(channel).includes(subject))
              undeclared.add(`${channel} reads ${table} (${subject ?? 'no subject'})`);
          }
        }
        expect([...undeclared].sort()).toEqual([]);
      });
  });
}
