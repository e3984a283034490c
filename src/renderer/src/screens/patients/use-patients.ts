import type { SharedIdsView } from '@shared/patient-identity-views';
import type { PatientSummaryView, PatientView } from '@shared/patient-views';
import type { IpcArgs } from '@shared/ipc';
import { call } from '@renderer/lib/ipc';
import type { QueryState } from '@renderer/lib/live-query';
import { useLiveQuery, usePagedQuery, type PagedQueryHook } from '@renderer/lib/use-query';

/** Patients per patients.list call. */
export const PAGE = 100;
/** The contract's limit on the search. */
export const SEARCH_MAX = 200;

/**
 * The patients matching the search, a page at a time (offset pages), read again when protocols
 * or orders change (a new protocol or order can add a patient or change its counts).
 */
export function usePatientList(search: string): PagedQueryHook<PatientSummaryView> {
  return usePagedQuery<PatientSummaryView>(
    async (read, index) => {
      const page = await read('patients.list', {
        ...(search ? { search } : {}),
        limit: PAGE,
        offset: index * PAGE,
      });
      return page.ok
        ? { ok: true, value: { rows: page.value.patients, total: page.value.total, next: null } }
        : page;
    },
    [search],
    { pageSize: PAGE, randomAccess: true },
  );
}

/**
 * One patient, a live query: read again when protocols, orders or jobs change (a status the
 * poller found, an order sent from here, a protocol's sync state).
 */
export function usePatient(
  sourceId: string,
  person?: string,
): QueryState<PatientView> & { refresh(): void } {
  return useLiveQuery(
    (read) => read('patients.get', { sourceId, ...(person ? { person } : {}) }),
    [sourceId, person],
  );
}

/** The Patient IDs that name more than one person, read again when protocols change. */
export function useSharedIds(): QueryState<SharedIdsView> & { refresh(): void } {
  return useLiveQuery((read) => read('patients.sharedIds', {}), []);
}

/** Says who is who under a shared Patient ID: the same person, or another with a new ID. */
export function untangle(args: IpcArgs<'patients.untangle'>) {
  return call('patients.untangle', args);
}
