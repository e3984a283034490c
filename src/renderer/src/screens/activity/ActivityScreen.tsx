import { FileDown, Loader2 } from 'lucide-react';
import { useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { plural } from '@renderer/lib/format';
import {
  activityFilter,
  isFiltered,
  useActivityStore,
  type ActivityFilters as Filters,
} from '@renderer/stores/activity-store';
import '@renderer/styles/activity.css';
import { ActivityFilters } from './ActivityFilters';
import { ActivityList } from './ActivityList';
import { ChainCheck } from './ChainCheck';
import { useActivityList } from './use-activity';

/**
 * #/activity: the activity record (audit trail) of the active connection: every entry, newest
 * first, filtered by patient, person, action and days; the check of its hash chain; and the
 * matching entries as CSV (the export is recorded too).
 */
export default function ActivityScreen() {
  const filters = useActivityStore(
    useShallow((s): Filters => ({
      patientText: s.patientText,
      patient: s.patient,
      person: s.person,
      action: s.action,
      from: s.from,
      to: s.to,
    })),
  );
  const exporting = useActivityStore((s) => s.exporting);
  const exportCsv = useActivityStore((s) => s.exportCsv);
  const clear = useActivityStore((s) => s.clearFilters);
  const filter = useMemo(() => activityFilter(filters), [filters]);
  const filtered = isFiltered(filters);
  const list = useActivityList(filter);
  const { state } = list;
  return (
    <div className="screen screen-wide activity-screen">
      <div className="screen-head">
        <h1>Activity</h1>
        <ChainCheck />
      </div>
      <section className="card activity-card" aria-label="Activity record">
        <ActivityFilters />
        <div className="activity-summary">
          <p className="summary muted" role="status">
            {state.status === 'ready' && !state.stale
              ? `${plural(state.total, 'entry', 'entries')}${filtered ? ' match' : ''}`
              : ''}
          </p>
          <div className="activity-actions">
            {filtered && (
              <button type="button" className="button button-small" onClick={clear}>
                Clear filters
              </button>
            )}
            <button
              type="button"
              className="button button-small"
              onClick={() => void exportCsv()}
              disabled={exporting}
              aria-busy={exporting}
            >
              {exporting ? (
                <Loader2 aria-hidden="true" size={16} className="spin" />
              ) : (
                <FileDown aria-hidden="true" size={16} />
              )}
              Export CSV
            </button>
          </div>
        </div>
        <ActivityList list={list} filtered={filtered} onClear={clear} />
      </section>
    </div>
  );
}
