import { z } from 'zod';
import {
  ActivityFilter,
  ActivityPageView,
  ActivityPeopleView,
  ActivityQuery,
  ChainCheckView,
  RetentionYears,
} from '../activity-views';
import { CsvFile } from '../csv-file';
import { call, None, Nothing, read, type AreaChannels } from './channel';

/** activity.*: the activity record of the active connection, its check, export and retention. */
export const activityChannels = {
  /** The activity record (audit trail) of the active connection, newest first, filtered. */
  'activity.list': read(ActivityQuery, ActivityPageView, ['activity']),
  /** The staff names and OS accounts the record names (the person filter). */
  'activity.people': read(None, ActivityPeopleView, ['activity']),
  /** Walks the record's hash chain: intact, or the first entry where it breaks and why. */
  'activity.check': read(None, ChainCheckView, ['activity']),
  /** Every entry the filters match as CSV; the export is itself recorded. */
  'activity.exportCsv': call(ActivityFilter, CsvFile),
  /** How many years the record is kept (the purge runs at open and daily). */
  'activity.setRetention': call(z.object({ years: RetentionYears }), Nothing),
} as const satisfies AreaChannels<'activity'>;
