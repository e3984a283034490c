import type { ActivityFilter } from '@shared/activity-views';
import { checkChain } from '@main/activity/activity-chain';
import { exportActivityCsv } from '@main/activity/activity-export';
import type { ActivityMatch } from '@main/activity/activity-repo';
import { SETTING_KEYS } from '@main/db';
import { toActivityView } from '../views';
import { sessionWrapper, type AreaHandlers, type IpcHandlerDeps } from './context';

/** Lets other work run between the chunks of a long check. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** activity.*: the activity record of the active connection, its check, export and retention. */
export function activityHandlers({ core }: IpcHandlerDeps): AreaHandlers<'activity'> {
  const withSession = sessionWrapper(core);
  return {
    'activity.list': withSession(async ({ limit, offset, ...filter }) => {
      const { activity } = core.store;
      const match = matchOf(filter);
      return {
        entries: activity.page(match, limit, offset).map(toActivityView),
        total: activity.count(match),
      };
    }),
    'activity.people': withSession(async () => core.store.activity.people()),
    'activity.check': withSession(async () => checkChain(core.store.db, nextTurn)),
    'activity.exportCsv': withSession(async (filter, s) => {
      const file = exportActivityCsv(core.store.activity, matchOf(filter));
      s.activity.record({
        action: 'csv-exported',
        subjects: filter.patient ? { patients: [filter.patient] } : {},
        detail: {
          what: 'activity',
          count: file.rows,
          filters: Object.entries(filter)
            .filter(([, value]) => value !== undefined && value !== '')
            .map(([key]) => key),
        },
      });
      return file;
    }),
    'activity.setRetention': async ({ years }) => {
      core.changeSetting(SETTING_KEYS.activityRetention, years);
      return null;
    },
  };
}

/** The filters as the repository applies them: instants as the stored UTC text. */
function matchOf(filter: ActivityFilter): ActivityMatch {
  const utc = (iso: string | undefined) => (iso ? new Date(iso).toISOString() : undefined);
  const from = utc(filter.from);
  const to = utc(filter.to);
  return {
    ...(filter.patient ? { patient: filter.patient.trim() } : {}),
    ...(filter.person ? { person: filter.person } : {}),
    ...(filter.action ? { action: filter.action } : {}),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
  };
}
