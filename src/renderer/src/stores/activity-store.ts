import { addDays, parseISO, startOfDay } from 'date-fns';
import { create } from 'zustand';
import type { ActivityAction, ActivityFilter } from '@shared/activity-views';
import { call } from '../lib/ipc';
import { datedFileName } from '@renderer/lib/save-file';
import { handOverCsvExport } from '@renderer/stores/csv-export';
import { rangeProblem } from '@renderer/lib/order-filters';

/** What the Activity screen is filtered by, as the user chose it. */
export interface ActivityFilters {
  /** A Patient ID as typed; `patient` is what the list applies (after a pause in typing). */
  patientText: string;
  patient: string;
  /** A staff name or OS account; '' for everyone. */
  person: string;
  action: ActivityAction | '';
  /** Days as the date fields hold them (yyyy-MM-dd); '' when not set. */
  from: string;
  to: string;
}

interface ActivityStore extends ActivityFilters {
  exporting: boolean;
  set(change: Partial<ActivityFilters>): void;
  clearFilters(): void;
  /** Every entry the filters match, as a CSV file handed to the user. */
  exportCsv(): Promise<void>;
  reset(): void;
}

const NO_FILTERS: ActivityFilters = {
  patientText: '',
  patient: '',
  person: '',
  action: '',
  from: '',
  to: '',
};

/**
 * The filters as main applies them: days from the start of the first to the start of the day
 * after the last, on this computer's clock; a range that cannot be used filters no dates.
 */
export function activityFilter(f: ActivityFilters): ActivityFilter {
  const dates = rangeProblem(f.from, f.to)
    ? {}
    : {
        ...(f.from ? { from: startOfDay(parseISO(f.from)).toISOString() } : {}),
        ...(f.to ? { to: startOfDay(addDays(parseISO(f.to), 1)).toISOString() } : {}),
      };
  return {
    ...(f.patient.trim() ? { patient: f.patient.trim() } : {}),
    ...(f.person ? { person: f.person } : {}),
    ...(f.action ? { action: f.action } : {}),
    ...dates,
  };
}

export const isFiltered = (f: ActivityFilters): boolean =>
  Object.keys(activityFilter(f)).length > 0;

/** The Activity screen's filters (kept while the window is open) and its export. */
export const useActivityStore = create<ActivityStore>((set, get) => ({
  ...NO_FILTERS,
  exporting: false,
  set: (change) => set(change),
  clearFilters: () => set(NO_FILTERS),

  async exportCsv() {
    set({ exporting: true });
    const result = await call('activity.exportCsv', activityFilter(get()));
    set({ exporting: false });
    handOverCsvExport(result, {
      fileName: datedFileName('order-desk-activity'),
      noun: 'entry',
      nounPlural: 'entries',
      failure: 'The activity record could not be exported.',
      empty: {
        title: 'No entries to export.',
        detail: 'Nothing in the activity record matches these filters.',
      },
    });
  },

  reset: () => set({ ...NO_FILTERS, exporting: false }),
}));
