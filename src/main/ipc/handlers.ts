import { z } from 'zod';
import { Connection } from '../../shared/connection';
import type { OrderStatusRead, PartnerSettings } from '../../shared/api';
import type { OrderMatch } from '../../shared/work-views';
import {
  Theme,
  type AppState,
  type IpcChannel,
  type IpcParsedArgs,
  type IpcValue,
  type PartnerConnectionInput,
} from '../../shared/ipc';
import type { Core, NewConnection } from '../core';
import type { Logger } from '../logging';
import type { Session } from '../connection-session';
import { SETTING_KEYS, StoreError } from '../store';
import { outboxCount } from '../protocols/conflicts';
import { CREDENTIALS_REJECTED } from '../sync/sync-engine';
import type { Batch } from '../bulk/batch-model';
import {
  BatchRejectedError,
  RetryRefusedError,
  describeProblem,
  problemPath,
} from '../bulk/order-requests';
import { reviewBatch } from '../bulk/batch-review';
import { createOrder, reviewOrder } from '../orders/create-order';
import { ensurePricing, keepPricing, pricingTermsView } from '../catalog/partner-pricing';
import { refillsDue } from '../orders/refills';
import { exportOrdersCsv } from '../orders/order-export';
import { UpdateRefused } from '../updates/update-controller';
import { CsvFileError, planImport } from '../csv/protocol-import';
import { exportProtocols, protocolsTemplate } from '../csv/protocol-export';
import { toBatchItemView, toProtocolView, toSummaryView } from './views';
import { toConnectionView } from './connection-view';
import type { IpcHost } from './dispatch';
import { IpcFailure, fieldErrorsOf, describeFieldErrors, notConnected } from './errors';

/** One handler per channel: takes the parsed argument, answers the contract's value or throws. */
export type IpcHandlers = {
  [C in IpcChannel]: (args: IpcParsedArgs<C>) => Promise<IpcValue<C>>;
};

export interface IpcHandlerDeps {
  core: Core;
  host: IpcHost;
  log: Logger;
}

/** The queue's search and filters, without the keys the caller left out. */
const orderMatch = ({ search, sourceId, createdFrom, createdTo }: OrderMatch) => ({
  ...(search ? { search } : {}),
  ...(sourceId ? { sourceId } : {}),
  ...(createdFrom ? { createdFrom } : {}),
  ...(createdTo ? { createdTo } : {}),
});

/** The queue's filter as orders.list applies it (orders.exportCsv applies exactly this too). */
const queueFilter = ({ statuses, ...match }: OrderMatch & { statuses?: OrderStatusRead[] }) => ({
  ...orderMatch(match),
  ...(statuses ? { statuses } : {}),
});

type OrderInput = IpcParsedArgs<'orders.create'>;

/** orders.review's and orders.create's argument as the bulk submitter takes it. */
const orderInput = (input: OrderInput) =>
  input.from === 'protocol' ? { protocolLocalId: input.protocolLocalId } : { draft: input.draft };

/** An update call the controller refuses, as the failure the window shows. */
function refusedUpdate<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (!(error instanceof UpdateRefused)) throw error;
    throw new IpcFailure(
      error.reason === 'unsupported' ? 'unavailable' : 'conflict',
      error.message,
    );
  }
}

/** A partner connection's fields checked as the stored Connection will be (URLs, https rule). */
function splitPartnerInput(input: PartnerConnectionInput): {
  connection: NewConnection;
  secret: string;
} {
  const { clientSecret, ...fields } = input;
  const checked = Connection.safeParse({ ...fields, id: 'probe' });
  if (!checked.success) {
    const fieldErrors = fieldErrorsOf(checked.error.issues);
    throw new IpcFailure(
      'invalid-arguments',
      `Check the connection details: ${describeFieldErrors(fieldErrors)}.`,
      fieldErrors,
    );
  }
  return { connection: fields, secret: clientSecret };
}

export function createIpcHandlers({ core, host, log }: IpcHandlerDeps): IpcHandlers {
  const session = (): Session => {
    const s = core.session;
    if (!s) throw notConnected();
    return s;
  };

  const appState = (): AppState => {
    const s = core.session;
    const active = core.app.connections.active();
    return {
      version: host.version,
      transport: host.transport,
      platform: host.platform,
      connection: active ? toConnectionView(active) : null,
      online: s?.connectivity.online ?? false,
      offlineReason: s?.connectivity.reason ?? null,
      sync: core.syncState ?? {
        phase: s && !s.connectivity.online ? 'offline' : 'idle',
        lastSyncedAt: s?.sync.lastSyncedAt ?? null,
        error: null,
        skipped: [],
      },
      outbox: outboxOf(s),
      theme: core.app.settings.get(SETTING_KEYS.theme, Theme, 'system'),
      notifications: core.app.settings.get(SETTING_KEYS.notifications, z.boolean(), true),
      // Issue 12 (polish): the Connect screen says where the secret is kept.
      secretStorage: core.secretStorage,
      notices: core.notices(),
      storage: core.storageProblem,
    };
  };

  /** The header's counts; none while no store is open (none active, or one being recovered). */
  const outboxOf = (s: Session | null) => {
    try {
      if (s) return outboxCount(core.store);
    } catch (error) {
      if (!(error instanceof StoreError && error.code === 'unavailable')) throw error;
    }
    return { pending: 0, inDoubt: 0, conflicts: 0 };
  };

  /** "Sync now": push, then pull; a run that could not finish is a failure of the call. */
  const syncNow = async (): Promise<void> => {
    const s = session();
    const damaged = core.damaged;
    const report = await s.sync.syncNow();
    // A store found damaged meanwhile is being recovered: what this run did is not a success.
    if (core.damaged !== damaged) {
      throw new IpcFailure(
        'storage',
        'The sync stopped: Order Desk found its local database damaged. It keeps the damaged file, recovers what it can read into a new one and tells you where the file is; sync again once it has.',
      );
    }
    if (report.phase === 'offline' && s.connectivity.reason === 'credentials-rejected') {
      throw new IpcFailure('unauthorized', `${CREDENTIALS_REJECTED} Local changes are kept.`);
    }
    if (report.phase === 'offline' && s.connectivity.reason === 'credentials-missing') {
      throw new IpcFailure(
        'keychain',
        "This connection's client secret is not in the keychain, so nothing was synced. Unlock the keychain, or enter the secret again in Connection (Edit on the connection); local changes are kept.",
      );
    }
    if (report.phase === 'offline' && s.connectivity.reason === 'not-api') {
      throw new IpcFailure(
        'network',
        "The network is not reaching the server (an answer that is not the API's, such as a Wi-Fi sign-in page), so nothing was synced. Sign in to the network; local changes are kept and sent when the server is back.",
      );
    }
    if (report.phase === 'offline') {
      throw new IpcFailure(
        'network',
        `The server cannot be reached, so nothing was synced. Local changes are kept and sent when it is back.${report.error ? ` (${report.error})` : ''}`,
      );
    }
    if (report.phase === 'error') {
      throw new IpcFailure('server', `The sync did not finish: ${report.error ?? 'unknown error'}`);
    }
  };

  /** A local protocol, or a not-found failure that names it. */
  const protocol = (localId: string) => {
    const p = core.store.protocols.get(localId);
    if (!p) throw new IpcFailure('not-found', 'This protocol no longer exists here.');
    return p;
  };

  /** A CSV file that cannot be read as protocols fails the call with every reason. */
  const csvFile = <T>(read: () => T): T => {
    try {
      return read();
    } catch (error) {
      if (!(error instanceof CsvFileError)) throw error;
      throw new IpcFailure(
        'validation',
        error.message,
        error.problems.map((message) => ({ path: ['csv'], message })),
      );
    }
  };

  /** A batch of the local store, or a not-found failure. */
  const batch = (batchId: string) => {
    const b = core.store.batches.get(batchId);
    if (!b) throw new IpcFailure('not-found', 'This batch does not exist here.');
    return b;
  };

  /** A batch as the batches list shows it. */
  const batchView = ({ id, createdAt, finishedAt, concurrency }: Batch) => ({
    id,
    createdAt,
    finishedAt,
    concurrency,
    progress: session().bulk.progress(id),
  });

  /** A mirror that was never filled is filled first, so a fresh connection shows its catalog. */
  const ensureMirror = async (isEmpty: () => boolean): Promise<void> => {
    const s = session();
    if (isEmpty() && s.connectivity.online) await s.sync.syncNow();
  };
  /** The catalog, fetched first when this connection has never synced it (and can). */
  const ensureCatalog = () => ensureMirror(() => core.store.products.count() === 0);

  /** The pricing terms estimates use, read first when they never were on this connection. */
  const pricingTerms = () => {
    const s = session();
    return ensurePricing({
      store: core.store,
      client: s.client,
      clock: core.clock,
      online: s.connectivity.online,
      log: (line) => log.child('pricing').warn(line),
    });
  };

  /** Partner settings the server answered: their pricing terms are what estimates use now. */
  const keptSettings = (settings: PartnerSettings): PartnerSettings => {
    keepPricing(core.store, settings, core.clock.now());
    return settings;
  };

  /**
   * orders.review and orders.create of something that is not a complete order: nothing is sent,
   * and each reason is on its field (a scratch draft's under `draft`, a protocol's on its own).
   */
  const notAnOrder = (input: OrderInput, error: BatchRejectedError): IpcFailure => {
    if (input.from === 'protocol' && !core.store.protocols.get(input.protocolLocalId))
      return new IpcFailure('not-found', 'This protocol no longer exists here.');
    const prefix = input.from === 'scratch' ? ['draft'] : [];
    const fieldErrors = error.rejected
      .flatMap((r) => r.problems)
      .map((p) => ({ path: [...prefix, ...problemPath(p.path)], message: p.message }));
    return new IpcFailure(
      'validation',
      `This is not a complete order yet, so nothing was sent: ${describeFieldErrors(fieldErrors)}.`,
      fieldErrors,
    );
  };

  return {
    'app.state': async () => appState(),
    'app.setTheme': async ({ theme }) => {
      core.app.settings.set(SETTING_KEYS.theme, theme);
      return null;
    },
    'app.setNotifications': async ({ enabled }) => {
      core.app.settings.set(SETTING_KEYS.notifications, enabled);
      return null;
    },
    'app.dismissNotice': async ({ id }) => {
      core.dismissNotice(id);
      return null;
    },
    'app.openExternal': async ({ url }) => {
      await host.openExternal(url);
      return null;
    },

    // Issue 12 (polish): a saved connection says when its secret is missing from the keychain.
    'connections.list': async () =>
      Promise.all(
        core.listConnections().map(async (c) => ({
          ...toConnectionView(c),
          secretMissing: await core.secretMissing(c),
        })),
      ),
    'connections.test': async (input) => {
      const { connection, secret } = splitPartnerInput(input);
      return core.testConnection(connection, secret);
    },
    'connections.connect': async (input) => {
      const { connection, secret } = splitPartnerInput(input);
      return toConnectionView(await core.connect(connection, secret));
    },
    'connections.useEmbedded': async () => toConnectionView(await core.useEmbedded()),
    'connections.activate': async ({ id }) => toConnectionView(await core.activate(id)),
    // Issue 12 (polish): edit a saved connection / enter its secret again.
    'connections.update': async ({ id, clientSecret, ...fields }) => {
      const { connection } = splitPartnerInput({ ...fields, clientSecret: clientSecret ?? '-' });
      return toConnectionView(await core.updateConnection(id, connection, clientSecret));
    },
    'connections.removal': async ({ id }) => core.removal(id),
    'connections.remove': async ({ id }) => ({ removed: await core.removeConnection(id) }),

    'sync.now': async () => {
      await syncNow();
      return null;
    },

    'catalog.products': async ({ status, search, limit, offset, sort }) => {
      await ensureCatalog();
      const filter = {
        ...(status ? { status } : {}),
        ...(search ? { search } : {}),
      };
      return {
        products: core.store.products.list({ ...filter, limit, offset, sort }),
        total: core.store.products.countMatching(filter),
      };
    },
    'catalog.product': async ({ id }) => {
      await ensureCatalog();
      const product = core.store.products.get(id);
      if (!product) throw new IpcFailure('not-found', `Product ${id} is not in the catalog.`);
      return product;
    },
    'catalog.shippingMethods': async () => {
      await ensureMirror(() => core.store.shippingMethods.list().length === 0);
      return core.store.shippingMethods.list();
    },
    'catalog.pricing': async () => pricingTermsView(await pricingTerms()),

    'protocols.list': async ({ search, syncStates, includeDeleted, hide, sort, limit, cursor }) => {
      session();
      const page = core.store.protocols.list({
        search,
        includeDeleted,
        ...(hide ? { hide } : {}),
        sort,
        limit,
        cursor,
        ...(syncStates ? { syncStates } : {}),
      });
      return {
        items: page.items.map(toSummaryView),
        nextCursor: page.nextCursor,
        total: page.total,
      };
    },
    'protocols.matchingIds': async ({ search, syncStates, includeDeleted, hide }) => {
      session();
      return {
        localIds: core.store.protocols.matchingIds({
          search,
          includeDeleted,
          ...(hide ? { hide } : {}),
          ...(syncStates ? { syncStates } : {}),
        }),
      };
    },
    'protocols.get': async ({ localId }) => {
      session();
      return toProtocolView(protocol(localId));
    },
    'protocols.create': async ({ draft }) => toProtocolView(session().protocols.create(draft)),
    'protocols.update': async ({ localId, draft }) => {
      const s = session();
      protocol(localId);
      return toProtocolView(s.protocols.update(localId, draft));
    },
    'protocols.duplicate': async ({ localId, customer }) => {
      const s = session();
      protocol(localId);
      try {
        return toProtocolView(s.protocols.duplicate(localId, customer));
      } catch (error) {
        if (!(error instanceof z.ZodError)) throw error;
        // On the paths of the protocol's draft, where the editor shows them.
        const fieldErrors = fieldErrorsOf(error.issues);
        throw new IpcFailure(
          'validation',
          `This protocol cannot be copied until it is complete: ${describeFieldErrors(fieldErrors)}.`,
          fieldErrors,
        );
      }
    },
    'protocols.delete': async ({ localId }) => {
      const s = session();
      protocol(localId);
      return { effect: s.protocols.delete(localId) };
    },
    'protocols.conflicts': async () => session().protocols.conflicts(),
    /** A change still in flight refuses it (StoreError invalid-state, crossing as 'conflict'). */
    'protocols.resolveConflict': async ({ localId, choice }) => {
      const s = session();
      protocol(localId);
      return s.protocols.resolveConflict(localId, choice);
    },
    'protocols.importPreview': async ({ csv }) => {
      await ensureCatalog();
      return csvFile(() => planImport(core.store, csv).preview);
    },
    'protocols.importCommit': async ({ csv, expectedReady }) => {
      const s = session();
      const plan = csvFile(() => planImport(core.store, csv));
      if (expectedReady !== undefined && plan.preview.ready !== expectedReady) {
        throw new IpcFailure(
          'conflict',
          `The file now gives ${plan.preview.ready} protocols ready to import instead of ${expectedReady} (the catalog or the protocols changed meanwhile). Nothing was imported; check the preview again.`,
        );
      }
      const ids = s.protocols.importMany(plan.requests);
      return { created: ids.length, skipped: plan.preview.bad.length };
    },
    'protocols.exportCsv': async (args) => {
      session();
      return exportProtocols(core.store, args);
    },
    'protocols.csvTemplate': async () => {
      await ensureCatalog();
      return protocolsTemplate(core.store);
    },

    'batches.review': async ({ protocolLocalIds }) => {
      const s = session();
      await pricingTerms();
      return reviewBatch(core.store, protocolLocalIds, {
        embedded: s.connection.kind === 'embedded',
        duplicates: s.duplicates,
      });
    },
    'batches.submit': async ({ protocolLocalIds, concurrency, allowDuplicateOf }) => {
      const s = session();
      try {
        return {
          batchId: s.bulk.submit(protocolLocalIds, {
            ...(concurrency ? { concurrency } : {}),
            ...(allowDuplicateOf ? { allowDuplicateOf } : {}),
          }),
        };
      } catch (error) {
        if (!(error instanceof BatchRejectedError)) throw error;
        // Each protocol that cannot be an order, at its place in the argument.
        const fieldErrors = error.rejected.map((r) => ({
          path: ['protocolLocalIds', protocolLocalIds.indexOf(r.protocolLocalId)],
          message: `${r.label ?? 'Unknown protocol'}: ${r.problems.map(describeProblem).join('; ')}`,
        }));
        throw new IpcFailure(
          'validation',
          `${error.rejected.length} protocol(s) cannot be submitted; nothing was sent.`,
          fieldErrors,
        );
      }
    },
    'batches.list': async () => {
      session();
      return core.store.batches.list().map(batchView);
    },
    'batches.items': async ({ batchId }) => {
      session();
      batch(batchId);
      return core.store.batches.items(batchId).map(toBatchItemView);
    },
    'batches.pause': async ({ batchId }) => {
      const s = session();
      batch(batchId);
      s.bulk.pause(batchId);
      return batchView(batch(batchId));
    },
    'batches.retryItem': async ({ batchId, seq, sendAnyway }) => {
      const s = session();
      batch(batchId);
      try {
        s.bulk.retryItem(batchId, seq, { allowDuplicates: sendAnyway === true });
      } catch (error) {
        if (!(error instanceof RetryRefusedError)) throw error;
        const kind = {
          'no-item': 'not-found',
          'no-protocol': 'not-found',
          'not-rejected': 'conflict',
          'not-held': 'conflict',
          problems: 'validation',
        } as const;
        throw new IpcFailure(
          kind[error.reason],
          error.message,
          error.problems.map((p) => ({
            path: problemPath(p.path),
            message: p.message,
          })),
        );
      }
      return batchView(batch(batchId));
    },
    'batches.continue': async ({ batchId }) => {
      const s = session();
      batch(batchId);
      s.bulk.continue(batchId);
      return batchView(batch(batchId));
    },

    'orders.list': async ({ limit, offset, ...query }) => {
      session();
      const filter = queueFilter(query);
      const orders = core.store.orders.list({ ...filter, limit, offset });
      return {
        orders,
        total: core.store.orders.count(filter),
        possibleDuplicateOf: Object.fromEntries(
          core.store.orders.duplicateOf(orders.map((o) => o.id)),
        ),
      };
    },
    'orders.exportCsv': async (query) => {
      session();
      return exportOrdersCsv(core.store.orders, queueFilter(query));
    },
    'orders.counts': async (match) => {
      session();
      const counts = core.store.orders.countByStatus(orderMatch(match));
      return {
        counts,
        total: Object.values(counts).reduce((a, n) => a + n, 0),
      };
    },
    'orders.get': async ({ orderId }) => {
      session();
      const order = core.store.orders.get(orderId);
      if (!order) throw new IpcFailure('not-found', `Order ${orderId} is not in the local mirror.`);
      return order;
    },
    'orders.timeline': async ({ orderId }) => {
      session();
      if (!core.store.orders.get(orderId))
        throw new IpcFailure('not-found', `Order ${orderId} is not in the local mirror.`);
      return core.store.orders.timeline(orderId).map((c) => ({
        status: c.status,
        previous: c.previous,
        seenAt: new Date(c.seenAt).toISOString(),
      }));
    },
    'orders.review': async (input) => {
      const s = session();
      await pricingTerms();
      try {
        return await reviewOrder(core.store, orderInput(input), {
          embedded: s.connection.kind === 'embedded',
          duplicates: s.duplicates,
        });
      } catch (error) {
        if (!(error instanceof BatchRejectedError)) throw error;
        throw notAnOrder(input, error);
      }
    },
    'orders.create': async (input) => {
      const s = session();
      try {
        return {
          batchId: createOrder(
            { store: core.store, bulk: s.bulk },
            orderInput(input),
            input.allowDuplicateOf ? { allowDuplicateOf: input.allowDuplicateOf } : {},
          ),
        };
      } catch (error) {
        if (!(error instanceof BatchRejectedError)) throw error;
        throw notAnOrder(input, error);
      }
    },
    'refills.due': async ({ withinDays }) => {
      // Days left count from the server's time, as the orders' dates do.
      const { due, neverOrdered } = refillsDue(core.store, session().serverTime.now(), withinDays);
      return {
        due: due.map((r) => ({
          protocol: toSummaryView(r.protocol),
          lastOrderId: r.lastOrderId,
          lastOrderedAt: r.lastOrderedAt,
          daysSupply: r.daysSupply,
          runsOutAt: new Date(r.runsOutAt).toISOString(),
          daysLeft: r.daysLeft,
        })),
        neverOrdered: neverOrdered.map(toSummaryView),
      };
    },
    'orders.refresh': async ({ orderId }) => session().orders.refreshOrder(orderId),
    'orders.cancel': async ({ orderId }) => session().orders.cancelOrder(orderId),

    'settings.get': async () => keptSettings(await session().client.getPartnerSettings()),
    'settings.update': async (patch) =>
      keptSettings(await session().client.updatePartnerSettings(patch)),
    'settings.revealWebhookSecret': async () => ({
      secret: await session().client.getWebhookSecret(),
    }),
    'settings.rotateWebhookSecret': async () => ({
      secret: await session().client.rotateWebhookSecret(),
    }),

    'updates.get': async () => core.updates.view(),
    'updates.configure': async (settings) => core.updates.configure(settings),
    'updates.check': async () =>
      refusedUpdate(() => {
        // The outcome (and a failure) arrives as update-status events.
        void core.updates.check();
        return core.updates.view();
      }),
    'updates.install': async () =>
      refusedUpdate(() => {
        core.updates.install();
        return null;
      }),
  };
}
