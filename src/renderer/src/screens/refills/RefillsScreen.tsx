import { Info, RefreshCw } from 'lucide-react';
import { useCallback, useMemo, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { DASHBOARD_REFILL_DAYS, LocalDay, localDay } from '@shared/dashboard-views';
import { Empty, Failed, Loading } from '@renderer/components/States';
import { formatDate } from '@renderer/lib/dates';
import { plural } from '@renderer/lib/format';
import { useBatchDraftStore } from '@renderer/stores/batch-draft-store';
import '@renderer/styles/refills.css';
import { DueTable } from './DueTable';
import { NeverOrderedTable } from './NeverOrderedTable';
import { useRefills } from './use-refills';
import { DEFAULT_WITHIN_DAYS } from './within-days';
import { WithinDaysChooser } from './WithinDaysChooser';

/** The number of days last chosen, kept while the window is open (coming back keeps it). */
const lastChoice: { withinDays: number | null } = { withinDays: null };

/**
 * Refills due: the protocols whose patient's last known order runs out within the chosen number
 * of days, soonest first, and apart the protocols never ordered. The ones chosen go to the batch
 * review as one batch. With a `day` (the dashboard's timeline, `#/refills/YYYY-MM-DD`), only the
 * supplies that run out on that local day are listed, to review them.
 */
export default function RefillsScreen({ day }: { day?: string }) {
  const [chosenDays, setWithinDays] = useState(() => lastChoice.withinDays ?? DEFAULT_WITHIN_DAYS);
  const onDay = day !== undefined && LocalDay.safeParse(day).success ? day : null;
  const withinDays = day === undefined ? chosenDays : DASHBOARD_REFILL_DAYS;
  const { state, reload } = useRefills(withinDays);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [, navigate] = useLocation();

  const chooseDays = useCallback((days: number) => {
    lastChoice.withinDays = days;
    setWithinDays(days);
  }, []);

  const toggle = useCallback((ids: readonly string[], chosen: boolean) => {
    setSelected((before) => {
      const next = new Set(before);
      for (const id of ids) {
        if (chosen) next.add(id);
        else next.delete(id);
      }
      return next;
    });
  }, []);

  const read = state.value;
  const view = useMemo(
    () =>
      read && day !== undefined
        ? {
            due: read.due.filter((r) => localDay(Date.parse(r.runsOutAt)) === onDay),
            neverOrdered: [],
          }
        : read,
    [read, day, onDay],
  );
  // Only what is on screen is submitted: a protocol no longer listed is no longer chosen.
  const chosen = useMemo(() => {
    if (!view) return [];
    const listed = [
      ...view.due.map((r) => r.protocol.localId),
      ...view.neverOrdered.map((p) => p.localId),
    ];
    return listed.filter((id) => selected.has(id));
  }, [view, selected]);

  const review = () => {
    // Each due protocol refills the supply it was listed with: those orders are not repeats.
    const chosenSet = new Set(chosen);
    const refillOf = Object.fromEntries(
      (view?.due ?? [])
        .filter((r) => chosenSet.has(r.protocol.localId))
        .map((r) => [r.protocol.localId, r.lastOrderId]),
    );
    useBatchDraftStore.getState().choose(chosen, '/refills', refillOf);
    navigate('/batches/review');
  };

  const shownDays = state.withinDays ?? withinDays;
  return (
    <div className="screen refills-screen">
      <div className="screen-head">
        <h1>Refills due</h1>
        <button
          type="button"
          className="button"
          onClick={reload}
          disabled={state.status === 'loading'}
        >
          <RefreshCw aria-hidden="true" size={15} />
          Refresh
        </button>
      </div>
      <p className="notice notice-info refills-explain">
        <Info aria-hidden="true" size={16} />
        <span>
          A protocol&apos;s supply is its patient&apos;s orders of the same products and doses,
          overlapping orders added up (a cancelled order does not count). A refill is due 7 days
          before the supply runs out; one ordered sooner is early. It is worked out on this computer
          from the orders this app knows, so it works offline.
        </span>
      </p>

      {day === undefined ? (
        <WithinDaysChooser value={withinDays} onChange={chooseDays} />
      ) : (
        <p className="notice notice-info refills-day" role="status">
          {onDay
            ? `Only the supplies that run out on ${formatDate(Date.parse(`${onDay}T12:00:00`))}.`
            : `“${day}” is not a day (YYYY-MM-DD): nothing is listed.`}{' '}
          <Link href="/refills">Show every refill due</Link>
        </p>
      )}

      {state.status === 'failed' && (
        <Failed what="Refills due could not be worked out." error={state.error} onRetry={reload} />
      )}
      {!view && state.status === 'loading' && <Loading label="Working out refills due…" />}

      {view && (
        <>
          <p className="summary refills-summary" role="status">
            {state.status === 'loading'
              ? 'Updating…'
              : day !== undefined
                ? `${plural(view.due.length, 'protocol')} running out that day.`
                : `${plural(view.due.length, 'protocol')} due within ${plural(shownDays, 'day')}; ${view.neverOrdered.length} not ordered yet.`}
          </p>

          <section className="card refills-section" aria-labelledby="refills-due-heading">
            <h2 id="refills-due-heading">
              {day === undefined
                ? `Due within ${plural(shownDays, 'day')}`
                : 'Running out that day'}{' '}
              <span className="section-count">{view.due.length}</span>
            </h2>
            {view.due.length === 0 ? (
              <Empty title={`No protocol runs out within ${plural(shownDays, 'day')}.`}>
                <p className="muted">
                  Look further ahead with a larger number of days, or check the orders: only the
                  orders this app knows count.
                </p>
              </Empty>
            ) : (
              <DueTable
                due={view.due}
                withinDays={shownDays}
                selected={selected}
                onToggle={toggle}
              />
            )}
          </section>

          {day === undefined && (
            <section className="card refills-section" aria-labelledby="refills-never-heading">
              <h2 id="refills-never-heading">
                Not ordered yet <span className="section-count">{view.neverOrdered.length}</span>
              </h2>
              <p className="muted refills-section-lead">
                No order of these protocols as they stand (the same products and doses) that this
                app knows of, so nothing says when they are due.
              </p>
              {view.neverOrdered.length === 0 ? (
                <Empty title="Every protocol has an order." />
              ) : (
                <NeverOrderedTable
                  protocols={view.neverOrdered}
                  selected={selected}
                  onToggle={toggle}
                />
              )}
            </section>
          )}

          <div className="refills-actions" role="group" aria-label="Submit the chosen protocols">
            <p className="refills-chosen" aria-live="polite">
              {chosen.length === 0
                ? 'Choose the protocols to order again.'
                : `${plural(chosen.length, 'protocol')} chosen.`}
            </p>
            <button
              type="button"
              className="button button-primary"
              disabled={chosen.length === 0}
              onClick={review}
            >
              Review the batch…
            </button>
            {chosen.length > 0 && (
              <button type="button" className="button" onClick={() => setSelected(new Set())}>
                Clear the choice
              </button>
            )}
          </div>
        </>
      )}
    </div>
  );
}
