import { z } from 'zod';
import type { ProtocolColumnsView, ProtocolMatch } from '@shared/protocol-views';
import { supplyEnd } from '@main/orders/refills';
import type { ProtocolListRow, ProtocolMatchQuery } from '@main/protocols/protocols-repo';
import { CsvFileError, planImport } from '@main/csv/protocol-import';
import { exportProtocols, protocolsTemplate } from '@main/csv/protocol-export';
import { IpcFailure, describeFieldErrors, fieldErrorsOf } from '../errors';
import { catalogNames, toProtocolView, toSummaryView } from '../views';
import {
  ensureCatalog,
  sessionWrapper,
  type AreaHandlers,
  type IpcHandlerDeps,
  type Session,
} from './context';

/**
 * protocols.*: the list, one protocol, the commands (protocols/protocol-commands.ts), conflicts,
 * CSV import and export.
 */
export function protocolsHandlers({ core }: IpcHandlerDeps): AreaHandlers<'protocols'> {
  const withSession = sessionWrapper(core);

  /** A local protocol, or a not-found failure that names it. */
  const protocol = (localId: string) => {
    const p = core.store.protocols.get(localId);
    if (!p) throw new IpcFailure('not-found', 'This protocol no longer exists here.');
    return p;
  };

  /**
   * The repository's terms for the list's search and filters; a due window is counted from the
   * server's time, as Refills due counts it.
   */
  const matchOf = (q: ProtocolMatch, s: Session): ProtocolMatchQuery => ({
    search: q.search,
    includeDeleted: q.includeDeleted,
    ...(q.hide ? { hide: q.hide } : {}),
    ...(q.syncStates ? { syncStates: q.syncStates } : {}),
    ...(q.productId !== undefined ? { productId: q.productId } : {}),
    ...(q.due ? { due: { window: q.due, now: s.serverTime.now() } } : {}),
  });

  return {
    'protocols.list': withSession(async (query, s) => {
      const page = core.store.protocols.page({
        ...matchOf(query, s),
        sort: query.sort,
        ...(query.direction ? { direction: query.direction } : {}),
        limit: query.limit,
        cursor: query.cursor,
      });
      const now = s.serverTime.now();
      return {
        items: page.items.map((p) => ({
          ...toSummaryView(p, catalogNames(core.store)),
          columns: columnsView(p.columns, now),
        })),
        nextCursor: page.nextCursor,
      };
    }),
    'protocols.count': withSession(async (query, s) => ({
      total: core.store.protocols.countMatching(matchOf(query, s)),
    })),
    'protocols.matchingIds': withSession(async (query, s) => ({
      localIds: core.store.protocols.matchingIds(matchOf(query, s)),
    })),
    'protocols.get': withSession(async ({ localId }) =>
      toProtocolView(protocol(localId), catalogNames(core.store)),
    ),
    'protocols.create': withSession(async ({ draft, patientId }, s) =>
      toProtocolView(s.protocols.create(draft, patientId), catalogNames(core.store)),
    ),
    'protocols.update': withSession(async ({ localId, draft, patientId }, s) => {
      protocol(localId);
      return toProtocolView(
        s.protocols.update(localId, draft, patientId),
        catalogNames(core.store),
      );
    }),
    'protocols.duplicate': withSession(async ({ localId, customer, patientId }, s) => {
      protocol(localId);
      try {
        return toProtocolView(
          s.protocols.duplicate(localId, customer, patientId),
          catalogNames(core.store),
        );
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
    }),
    'protocols.delete': withSession(async ({ localId }, s) => {
      protocol(localId);
      return { effect: s.protocols.delete(localId) };
    }),
    'protocols.conflicts': withSession(async (_, s) => s.protocols.conflicts()),
    /** A change still in flight refuses it (StoreError invalid-state, crossing as 'conflict'). */
    'protocols.resolveConflict': withSession(async ({ localId, choice }, s) => {
      protocol(localId);
      return s.protocols.resolveConflict(localId, choice);
    }),
    'protocols.importPreview': async ({ csv }) => {
      await ensureCatalog(core);
      return csvFile(() => planImport(core.store, csv).preview);
    },
    'protocols.importCommit': withSession(async ({ csv, expectedReady, patientIds }, s) => {
      const plan = csvFile(() => planImport(core.store, csv));
      if (expectedReady !== undefined && plan.preview.ready !== expectedReady) {
        throw new IpcFailure(
          'conflict',
          `The file now gives ${plan.preview.ready} protocols ready to import instead of ${expectedReady} (the catalog or the protocols changed meanwhile). Nothing was imported; check the preview again.`,
        );
      }
      const rows = plan.preview.good.map((g) => ({
        row: g.row,
        clash: g.patientIdClash ?? null,
        choice: g.patientIdClash ? (patientIds?.[String(g.row)] ?? null) : null,
      }));
      const unanswered = rows.filter((r) => r.clash && r.choice === null).map((r) => r.row);
      if (unanswered.length > 0) {
        throw new IpcFailure(
          'validation',
          `Choose for ${unanswered.length === 1 ? 'row' : 'rows'} ${unanswered.slice(0, 10).join(', ')}${unanswered.length > 10 ? '…' : ''}: the Patient ID already names another person, so say whether it is the same person or gets a new ID. Nothing was imported.`,
        );
      }
      const asked = rows.some((r) => r.clash);
      // 'new-id': the row takes the ID the preview suggested, then passes the rule as any row.
      const requests = plan.requests.map((request, i) => {
        const r = rows[i]!;
        return r.clash && r.choice === 'new-id'
          ? { ...request, customer: { ...request.customer, sourceId: r.clash.suggestedId } }
          : request;
      });
      const ids = s.protocols.importMany(requests, {
        skipped: plan.preview.bad.length,
        ...(asked
          ? {
              patientIds: rows.map((r) => ({
                row: r.row,
                choice: r.choice === 'new-id' ? null : r.choice,
              })),
            }
          : {}),
      });
      return { created: ids.length, skipped: plan.preview.bad.length };
    }),
    'protocols.exportCsv': withSession(async (args, s) => {
      const { touched, ...file } = exportProtocols(core.store, {
        ...matchOf(args, s),
        sort: args.sort,
        ...(args.direction ? { direction: args.direction } : {}),
      });
      s.activity.record({
        action: 'csv-exported',
        subjects: touched,
        detail: { what: 'protocols', count: file.rows, filters: filtersOf(args) },
      });
      return file;
    }),
    'protocols.csvTemplate': async () => {
      await ensureCatalog(core);
      return protocolsTemplate(core.store);
    },
  };
}

/** A row's columns with the days left of its last order, counted from the server's time now. */
function columnsView(columns: ProtocolListRow['columns'], now: number): ProtocolColumnsView {
  const order = columns.lastOrder;
  if (!order) return { ...columns, lastOrder: null };
  const daysLeft = order.runsOutAt === null ? null : supplyEnd(order.runsOutAt, 0, now).daysLeft;
  return { ...columns, lastOrder: { ...order, daysLeft } };
}

/** The names of the list's filters an export applied (never what they hold). */
function filtersOf(q: ProtocolMatch): string[] {
  return Object.entries({
    search: q.search,
    syncStates: q.syncStates,
    includeDeleted: q.includeDeleted,
    productId: q.productId,
    due: q.due,
  })
    .filter(([, value]) => value !== undefined && value !== '' && value !== false)
    .map(([key]) => key);
}

/** A CSV file that cannot be read as protocols fails the call with every reason. */
function csvFile<T>(read: () => T): T {
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
}
