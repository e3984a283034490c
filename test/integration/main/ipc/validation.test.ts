import { describe, expect, it, vi } from 'vitest';
import { createContractDispatcher } from '@main/ipc/dispatch';
import type { IpcHandlers } from '@main/ipc/handlers';
import { silentLogger } from '@main/logging';
import {
  IPC_CHANNELS,
  IPC_EVENT_NAMES,
  type IpcChannel,
  type IpcEventName,
  type IpcResult,
} from '@shared/ipc';
import { createOrderDeskApi, type IpcTransport } from '@shared/ipc-bridge';
import { recordingLogger } from '@test/support/recording-logger';
import { validOrderBody } from '@test/support/sandbox';

/**
 * The contract's checks on the way back: main refuses a handler's answer that does not match the
 * result schema, and the renderer's side (createOrderDeskApi, used by the Electron preload and
 * the browser bridge) refuses an envelope or an event that does not match. The contract suite
 * (contract-suite.ts) covers the way in and real answers on both transports; here the handlers
 * and the transport are made to misbehave on purpose, for every channel and every event.
 */

/** A handler table where every channel answers `answer(channel)`. */
const handlersAnswering = (answer: (channel: IpcChannel) => Promise<unknown>): IpcHandlers =>
  Object.fromEntries(
    IPC_CHANNELS.map((channel) => [channel, () => answer(channel)]),
  ) as unknown as IpcHandlers;

const LOCAL_ID = '7a1f4c52-3a3e-4d3e-9b7c-2f1d4c5b6a70';

/** An argument every channel's schema accepts. */
const VALID_ARGS: Record<IpcChannel, unknown> = {
  'startup.state': {},
  'startup.retry': {},
  'startup.startFresh': { confirm: true },
  'app.state': {},
  'app.setTheme': { theme: 'dark' },
  'app.openExternal': { url: 'https://carrier.example/track/1Z999' },
  'app.setNotifications': { enabled: false },
  'app.setStartScreen': { screen: 'dashboard' },
  'app.setProtocolColumns': { columns: ['products', 'nextRefill'] },
  'app.dismissNotice': { id: 'notice-1' },
  'app.presence': { visible: true, input: false },
  'connections.list': {},
  'connections.test': {
    kind: 'partner-sandbox',
    label: 'Partner',
    baseUrl: 'https://sandbox.partner.example/v1',
    authUrl: 'https://auth.partner.example',
    clientId: 'clinic',
    clientSecret: 'a-secret',
  },
  'connections.connect': {
    kind: 'production',
    label: 'Production',
    baseUrl: 'https://api.partner.example/v1',
    authUrl: 'https://auth.partner.example',
    clientId: 'clinic',
    clientSecret: 'a-secret',
  },
  'connections.useEmbedded': {},
  'connections.activate': { id: 'conn_1' },
  'connections.update': {
    id: 'conn_1',
    kind: 'production',
    label: 'Production',
    baseUrl: 'https://api.partner.example/v1',
    authUrl: 'https://auth.partner.example',
    clientId: 'clinic',
  },
  'connections.removal': { id: 'conn_1' },
  'connections.remove': { id: 'conn_1' },
  'sync.now': {},
  'catalog.products': { search: 'magnesium' },
  'catalog.product': { id: 1001 },
  'catalog.shippingMethods': {},
  'catalog.pricing': {},
  'protocols.list': { search: 'ada', sort: 'name', syncStates: ['in-doubt'], productId: 1030 },
  'protocols.count': { search: 'ada', syncStates: ['pending'], productId: 1030 },
  'protocols.matchingIds': { search: 'ada' },
  'protocols.duplicate': { localId: LOCAL_ID, customer: validOrderBody().customer },
  'protocols.get': { localId: LOCAL_ID },
  'protocols.create': { draft: validOrderBody() },
  'protocols.update': { localId: LOCAL_ID, draft: validOrderBody() },
  'protocols.delete': { localId: LOCAL_ID },
  'protocols.conflicts': {},
  'protocols.resolveConflict': { localId: LOCAL_ID, choice: 'keep-mine' },
  'protocols.importPreview': { csv: 'Patient ID\r\nPAT-1\r\n' },
  'protocols.importCommit': { csv: 'Patient ID\r\nPAT-1\r\n', expectedReady: 1 },
  'protocols.exportCsv': { search: 'ada', sort: 'name', syncStates: ['pending'] },
  'protocols.csvTemplate': {},
  'batches.review': { protocolLocalIds: [LOCAL_ID] },
  'batches.submit': { protocolLocalIds: [LOCAL_ID], concurrency: 4 },
  'batches.list': {},
  'batches.items': { batchId: LOCAL_ID },
  'batches.pause': { batchId: LOCAL_ID },
  'batches.continue': { batchId: LOCAL_ID },
  'batches.retryItem': { batchId: LOCAL_ID, seq: 0 },
  'refills.due': { withinDays: 14 },
  'dashboard.summary': {},
  'patients.list': { search: 'ada', limit: 50, offset: 0 },
  'patients.get': { sourceId: 'patient-1' },
  'patients.sharedIds': {},
  'patients.untangle': { choice: 'same-person', sourceId: 'patient-1', keep: 'doe\u001fjane' },
  'palette.search': { text: 'ada' },
  'orders.list': { statuses: ['NEW'], limit: 20 },
  'orders.counts': { search: 'ada' },
  'orders.exportCsv': { statuses: ['SHIPPED'], search: 'ada', createdFrom: '2026-01-01T00:00:00Z' },
  'orders.get': { orderId: 'ord_1' },
  'orders.protocol': { orderId: 'ord_1' },
  'orders.timeline': { orderId: 'ord_1' },
  'orders.review': { from: 'protocol', protocolLocalId: LOCAL_ID },
  'orders.create': { from: 'protocol', protocolLocalId: LOCAL_ID },
  'orders.refresh': { orderId: 'ord_1' },
  'orders.cancel': { orderId: 'ord_1' },
  'settings.get': {},
  'settings.update': { supportEmail: 'help@clinic.example' },
  'settings.revealWebhookSecret': {},
  'settings.rotateWebhookSecret': { confirm: true },
  'schedule.savePdf': {
    fileName: 'dosing-schedule-ada-2026-11-26.pdf',
    subjects: { protocols: [LOCAL_ID] },
  },
  'schedule.printed': { subjects: { orders: ['ord_1'] } },
  'activity.list': { patient: 'pt-1', action: 'order-cancelled', limit: 50 },
  'activity.people': {},
  'activity.check': {},
  'activity.exportCsv': { person: 'Dana', from: '2026-11-01T00:00:00.000-08:00' },
  'activity.setRetention': { years: 7 },
  'staff.add': { name: 'Dana' },
  'staff.rename': { from: 'Dana', to: 'Dana R.' },
  'staff.remove': { name: 'Dana' },
  'staff.choose': { name: null },
  'updates.get': {},
  'updates.configure': { enabled: true, feedUrl: 'https://updates.example.com/order-desk/' },
  'updates.check': {},
  'updates.install': {},
  'practice.state': {},
  'practice.setEnabled': { enabled: true },
  'practice.advanceOrder': { orderId: 'ord_1', to: 'SHIPPED' },
  'practice.setOffline': { offline: true },
  'practice.setFulfillment': { paused: true, speed: 'slow' },
  'practice.stepOrders': {},
  'practice.setServer': { server: 'slow' },
  'practice.changeProtocol': { protocolId: 'prt_1' },
  'practice.setProductStatus': { productId: 1001, status: 'DISCONTINUED' },
  'undo.undo': {},
  'undo.redo': {},
  'undo.state': {},
  'undo.noteView': {
    before: { syncStates: [], productId: null, due: null, sort: 'changed', direction: null },
    after: {
      syncStates: ['pending'],
      productId: 1001,
      due: 'within-7',
      sort: 'name',
      direction: 'desc',
    },
  },
};

const CONNECTION = {
  id: 'conn_1',
  kind: 'partner-sandbox',
  label: 'Partner',
  baseUrl: 'https://sandbox.partner.example/v1',
  authUrl: 'https://auth.partner.example',
  clientId: 'clinic',
  isActive: true,
  secretMissing: false,
};

describe('main checks every answer against the contract', () => {
  it('refuses an answer of the wrong shape on every channel: internal, logged, nothing of it sent', async () => {
    const lines: string[] = [];
    const dispatcher = createContractDispatcher(
      handlersAnswering(async () => ({ notInTheContract: 'drifted-value-7f3a' })),
      recordingLogger(lines),
    );
    for (const channel of IPC_CHANNELS) {
      const result = await dispatcher.dispatch(channel, VALID_ARGS[channel]);
      expect(result, channel).toEqual({
        ok: false,
        error: {
          kind: 'internal',
          message: expect.stringContaining(channel),
          fieldErrors: [],
        },
      });
      expect(JSON.stringify(result)).not.toContain('drifted-value-7f3a');
    }
    expect(lines).toHaveLength(IPC_CHANNELS.length);
    for (const channel of IPC_CHANNELS)
      expect(lines.some((l) => l.startsWith(`the answer to ${channel} does not match`))).toBe(true);
  });

  it('drops the fields of an answer that the contract does not name (a secret a handler leaked)', async () => {
    const handlers = handlersAnswering(async () => null);
    handlers['connections.list'] = async () =>
      [{ ...CONNECTION, clientSecret: 'leaked-secret-1' }] as never;
    handlers['connections.remove'] = async () =>
      ({ removed: true, token: 'leaked-token-2' }) as never;
    const dispatcher = createContractDispatcher(handlers, silentLogger);
    expect(await dispatcher.dispatch('connections.list', {})).toEqual({
      ok: true,
      value: [CONNECTION],
    });
    expect(await dispatcher.dispatch('connections.remove', { id: 'conn_1' })).toEqual({
      ok: true,
      value: { removed: true },
    });
  });

  it('never throws past the boundary: a handler that throws or rejects answers internal, its text logged only', async () => {
    const lines: string[] = [];
    const log = recordingLogger(lines);
    for (const how of ['throws', 'rejects'] as const) {
      const handlers = Object.fromEntries(
        IPC_CHANNELS.map((channel) => [
          channel,
          how === 'throws'
            ? () => {
                throw new Error(`${channel} broke with token abc-private-detail`);
              }
            : () => Promise.reject(new Error(`${channel} broke with token abc-private-detail`)),
        ]),
      ) as unknown as IpcHandlers;
      const dispatcher = createContractDispatcher(handlers, log);
      for (const channel of IPC_CHANNELS) {
        const result = await dispatcher.dispatch(channel, VALID_ARGS[channel]);
        expect(result, `${channel} ${how}`).toMatchObject({
          ok: false,
          error: { kind: 'internal', fieldErrors: [] },
        });
        expect(JSON.stringify(result)).not.toContain('abc-private-detail');
      }
    }
    expect(lines).toHaveLength(IPC_CHANNELS.length * 2);
    expect(lines.every((l) => l.includes('abc-private-detail'))).toBe(true);
  });

  it('runs no handler for a refused argument', async () => {
    const handler = vi.fn(async () => null);
    const dispatcher = createContractDispatcher(
      handlersAnswering(handler as () => Promise<unknown>),
      silentLogger,
    );
    for (const channel of IPC_CHANNELS) {
      const result = await dispatcher.dispatch(channel, 'not an object');
      expect(result, channel).toMatchObject({ ok: false, error: { kind: 'invalid-arguments' } });
    }
    expect(handler).not.toHaveBeenCalled();
  });
});

/** A transport that answers every call with `envelope` and lets the test push events. */
function fakeTransport(envelope: (channel: IpcChannel) => unknown) {
  const sent: { channel: IpcChannel; args: unknown }[] = [];
  let push: ((event: string, payload: unknown) => void) | null = null;
  const transport: IpcTransport = {
    invoke: async (channel, args) => {
      sent.push({ channel, args });
      return envelope(channel);
    },
    subscribe: (listener) => {
      push = listener;
      return () => {
        push = null;
      };
    },
  };
  return {
    transport,
    sent,
    push: (event: string, payload: unknown) => push?.(event, payload),
    subscribed: () => push !== null,
  };
}

describe('the renderer side checks every answer and event against the contract', () => {
  it('refuses, on every channel, an answer that does not match its result schema', async () => {
    const fake = fakeTransport(() => ({ ok: true, value: { notInTheContract: true } }));
    const api = createOrderDeskApi(fake.transport);
    for (const channel of IPC_CHANNELS) {
      const result = (await api.call(channel, VALID_ARGS[channel] as never)) as IpcResult<unknown>;
      expect(result, channel).toMatchObject({
        ok: false,
        error: { kind: 'invalid-response', message: expect.stringContaining(channel) },
      });
    }
  });

  it('refuses an envelope that is not one, and an error of an unknown kind', async () => {
    for (const envelope of [
      null,
      'ok',
      42,
      {},
      { ok: 'yes', value: null },
      { ok: false, error: { kind: 'no-such-kind', message: 'm', fieldErrors: [] } },
      { ok: false, error: { kind: 'network' } },
    ]) {
      const api = createOrderDeskApi(fakeTransport(() => envelope).transport);
      const result = await api.call('app.state', {});
      expect(result, JSON.stringify(envelope)).toMatchObject({
        ok: false,
        error: { kind: 'invalid-response' },
      });
    }
  });

  it('passes a well-formed failure on as it is, with its field errors', async () => {
    const error = {
      kind: 'validation',
      message: 'The server refused the values: supportEmail: not deliverable.',
      fieldErrors: [{ path: ['supportEmail'], message: 'not deliverable' }],
    };
    const api = createOrderDeskApi(fakeTransport(() => ({ ok: false, error })).transport);
    expect(await api.call('settings.update', { supportEmail: 'help@clinic.example' })).toEqual({
      ok: false,
      error,
    });
  });

  it('never throws: a transport that fails answers internal; an unknown channel is not sent', async () => {
    const failing: IpcTransport = {
      invoke: () => Promise.reject(new Error('the socket is gone')),
      subscribe: () => () => undefined,
    };
    const result = await createOrderDeskApi(failing).call('app.state', {});
    expect(result).toMatchObject({
      ok: false,
      error: { kind: 'internal', message: expect.stringContaining('the socket is gone') },
    });
    const fake = fakeTransport(() => ({ ok: true, value: null }));
    const unknown = await createOrderDeskApi(fake.transport).call('app.nope' as never, {} as never);
    expect(unknown).toMatchObject({ ok: false, error: { kind: 'invalid-arguments' } });
    expect(fake.sent).toEqual([]);
  });

  it('delivers events that match their schema and drops the others, for every event', async () => {
    const VALID_EVENTS: Partial<Record<IpcEventName, unknown>> = {
      'outbox-count': { pending: 2, inDoubt: 0, conflicts: 1 },
      'batch-progress': {
        batchId: 'batch_1',
        state: 'running',
        total: 10,
        queued: 6,
        sending: 2,
        inDoubt: 0,
        created: 2,
        rejected: 0,
        held: 0,
        possibleDuplicates: 0,
        repeatsCancelled: 0,
      },
      'connection-changed': { connection: CONNECTION },
      // order-status carries a whole AppOrder: the contract suite sends a real one.
    };
    const fake = fakeTransport(() => null);
    const api = createOrderDeskApi(fake.transport);
    const received: { event: IpcEventName; payload: unknown }[] = [];
    const offs = IPC_EVENT_NAMES.map((event) =>
      api.on(event, (payload) => received.push({ event, payload })),
    );
    expect(fake.subscribed()).toBe(true);
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      for (const event of IPC_EVENT_NAMES) {
        for (const malformed of [null, 'text', { unexpected: true }, []])
          fake.push(event, malformed);
      }
      fake.push('no-such-event', { online: true });
      fake.push('__proto__', {});
      expect(received).toEqual([]);
      expect(consoleError).toHaveBeenCalledTimes(IPC_EVENT_NAMES.length * 4);

      for (const [event, payload] of Object.entries(VALID_EVENTS)) fake.push(event, payload);
      expect(received).toEqual(
        Object.entries(VALID_EVENTS).map(([event, payload]) => ({ event, payload })),
      );
      // Fields outside the contract do not reach the renderer.
      received.length = 0;
      fake.push('outbox-count', { pending: 1, inDoubt: 0, conflicts: 0, secret: 'x' });
      expect(received).toEqual([
        { event: 'outbox-count', payload: { pending: 1, inDoubt: 0, conflicts: 0 } },
      ]);
    } finally {
      consoleError.mockRestore();
    }
    for (const off of offs) off();
    expect(fake.subscribed()).toBe(false);
  });
});
