import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { keepPricing, storedPricing } from '@main/catalog/partner-pricing';
import { MemoryCredentialStore } from '@main/connections/keychain';
import { Core } from '@main/core';
import { createIpcDispatcher } from '@main/ipc/dispatch';
import { Redactor, silentLogger, type Logger } from '@main/logging';
import { SYNC_KEYS } from '@main/db';
import type { ProtocolRequest } from '@shared/api';
import type { IpcResult } from '@shared/ipc';
import type { BatchItemView, BatchReviewView } from '@shared/work-views';
import { clearFaults } from '@test/support/bulk';
import { startTestSandbox, validOrderBody, type TestSandbox } from '@test/support/sandbox';
import { TEST_KEY } from '@test/support/store-key';
import { openedStartup } from '@main/startup';

const UNKNOWN = "Total unknown until the partner's discount can be read.";

/**
 * A fetch that holds every request sent after the first read of the partner settings has been
 * answered, until `open()`: a server gone quiet right after the connection was tested.
 */
function quietAfterFirstSettingsRead() {
  let gate: Promise<void> | null = null;
  let release: () => void = () => undefined;
  let settingsReads = 0;
  const wrapped = (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    if (gate) await gate;
    const url = new URL(input instanceof Request ? input.url : String(input));
    const response = await fetch(input, init);
    if (url.pathname.endsWith('/partners/settings') && (init?.method ?? 'GET') === 'GET') {
      settingsReads++;
      if (settingsReads === 1) gate = new Promise((resolve) => (release = resolve));
    }
    return response;
  }) as typeof fetch;
  return Object.assign(wrapped, {
    settingsReads: () => settingsReads,
    open() {
      gate = null;
      release();
    },
  });
}

describe('the partner settings prices depend on', () => {
  const dirs: string[] = [];
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  async function setup(fetchImpl?: typeof fetch) {
    const sandbox: TestSandbox = await startTestSandbox();
    cleanups.push(() => sandbox.close());
    const dir = mkdtempSync(join(tmpdir(), 'order-desk-pricing-'));
    dirs.push(dir);
    const warnings: string[] = [];
    const log: Logger = { ...silentLogger, warn: (line) => warnings.push(line), child: () => log };
    const core = await Core.open({
      key: TEST_KEY,
      dataDir: dir,
      credentials: new MemoryCredentialStore(),
      log,
      redactor: new Redactor(),
      ...(fetchImpl ? { fetch: fetchImpl } : {}),
    });
    cleanups.push(() => core.close());
    const connect = () =>
      core.connect(
        {
          kind: 'partner-sandbox',
          label: 'Partner sandbox',
          baseUrl: sandbox.baseUrl,
          authUrl: sandbox.authUrl,
          clientId: sandbox.clientId,
        },
        sandbox.clientSecret,
      );
    const dispatcher = createIpcDispatcher({
      startup: openedStartup(core),
      host: { transport: 'electron', version: '0.0.0', platform: 'linux', openExternal: vi.fn() },
      log,
    });
    const call = async <T>(channel: string, args: unknown): Promise<T> => {
      const result = (await dispatcher.dispatch(channel, args)) as IpcResult<T>;
      if (!result.ok) throw new Error(`${channel}: ${result.error.kind}: ${result.error.message}`);
      return result.value;
    };
    return { sandbox, core, warnings, connect, call };
  }

  it('are kept at connect, from the settings the connection was tested with', async () => {
    const net = quietAfterFirstSettingsRead();
    const { core, connect } = await setup(net);
    cleanups.push(async () => net.open()); // before the core closes (cleanups run in reverse)
    // The sandbox's demo partner has a 15% discount. Everything sent after the test of the
    // connection is held (the session's first sync too), so what is stored when connect returns
    // came from that test.
    await connect();
    expect(storedPricing(core.store)).toMatchObject({
      discount: '15% partner discount',
      discountValue: 0.15,
    });
    expect(net.settingsReads()).toBe(1);
  });

  it('are read again by every full sync, which replaces a stale copy', async () => {
    const { core, connect } = await setup();
    await connect();
    keepPricing(core.store, { discount: '50%', discountValue: 0.5 }, 0);
    const report = await core.session!.sync.syncNow();
    expect(report.phase).toBe('idle');
    expect(report.pull?.pricing).toEqual({ changed: true });
    expect(storedPricing(core.store)).toMatchObject({ discountValue: 0.15 });
    const again = await core.session!.sync.syncNow();
    expect(again.pull?.pricing).toEqual({ changed: false });
  });

  it('never read: the estimates say the total is unknown; once read, the quote is what the server charges', async () => {
    const { sandbox, core, warnings, connect, call } = await setup();
    await connect();
    await core.session!.sync.syncNow(); // the catalog
    const draft = validOrderBody({
      customer: { ...(validOrderBody().customer as object), sourceId: 'pricing-1' },
      daysSupply: 60,
      shippingMethod: 'EXPRESS',
    }) as ProtocolRequest;
    const { localId } = await call<{ localId: string }>('protocols.create', { draft });

    // As if the settings were never read on this connection, and the server cannot answer them.
    core.store.syncState.delete(SYNC_KEYS.partnerPricing);
    const faults = await sandbox.api('PUT', '/_sandbox/faults', {
      errorRate: 1,
      errorStatus: 500,
      match: { method: 'GET', path: '/v1/partners/settings' },
    });
    expect(faults.status).toBe(200);
    const unknown = await call<BatchReviewView>('batches.review', { protocolLocalIds: [localId] });
    expect(unknown).toMatchObject({ estimatedTotal: null, totalUnknown: UNKNOWN, exact: false });
    expect(unknown.items[0]).toMatchObject({ estimatedTotal: null, problems: [] });
    expect(
      await call('orders.review', { from: 'protocol', protocolLocalId: localId }),
    ).toMatchObject({ estimatedTotal: null, totalUnknown: UNKNOWN });
    expect(await call('catalog.pricing', {})).toEqual({ known: false });
    expect(warnings).toContainEqual(
      expect.stringMatching(/^the partner settings could not be read: /),
    );

    // The server answers again: the next estimate reads the settings first.
    await clearFaults(sandbox);
    const review = await call<BatchReviewView>('orders.review', {
      from: 'protocol',
      protocolLocalId: localId,
    });
    expect(review.totalUnknown).toBeNull();
    expect(await call('catalog.pricing', {})).toMatchObject({ known: true, discountValue: 0.15 });
    const { batchId } = await call<{ batchId: string }>('orders.create', {
      from: 'protocol',
      protocolLocalId: localId,
    });
    let item: BatchItemView | undefined;
    await vi.waitFor(
      async () => {
        item = (await call<BatchItemView[]>('batches.items', { batchId }))[0];
        expect(item?.state).toBe('done');
      },
      { timeout: 15_000 },
    );
    const order = await sandbox.api<{ totalPrice: string }>('GET', `/v1/orders/${item!.orderId}`);
    expect(order.body.totalPrice).toBe(review.estimatedTotal);
  });
});
