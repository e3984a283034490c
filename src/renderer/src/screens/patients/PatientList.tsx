import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, type KeyboardEvent } from 'react';
import { Link } from 'wouter';
import type { PatientSummaryView } from '@shared/patient-views';
import { PageError, SkeletonRow } from '@renderer/components/PageError';
import { Empty, Failed, Loading } from '@renderer/components/States';
import { VirtualRow } from '@renderer/components/VirtualRow';
import { formatDate } from '@renderer/lib/dates';
import { plural } from '@renderer/lib/format';
import { rowAt } from '@renderer/lib/paged-query';
import type { PagedQueryHook } from '@renderer/lib/use-query';
import { patientHref } from './patient-href';
import { PAGE } from './use-patients';

const ROW_HEIGHT = 60;

/**
 * The patients matching the search, virtualised: only the rows on screen are in the DOM, their
 * pages read as the user scrolls. Each row is a link to the patient; arrows move between rows.
 */
export function PatientList({
  list,
  searched,
  onClear,
}: {
  list: PagedQueryHook<PatientSummaryView>;
  searched: boolean;
  onClear(): void;
}) {
  const { state, setView, retry } = list;
  const { total } = state;
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? 0;
  useEffect(() => setView(first, last), [first, last, setView]);

  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    const current = (document.activeElement as HTMLElement | null)?.closest<HTMLElement>(
      '[data-index]',
    );
    if (!current) return;
    event.preventDefault();
    const next = Number(current.dataset.index) + (event.key === 'ArrowDown' ? 1 : -1);
    if (next < 0 || next >= total) return;
    const linkAt = (i: number) =>
      scroller.current?.querySelector<HTMLElement>(`[data-index="${i}"] a`) ?? null;
    const rendered = linkAt(next);
    if (rendered) return rendered.focus();
    virtualizer.scrollToIndex(next);
    requestAnimationFrame(() => linkAt(next)?.focus());
  };

  if (state.status === 'failed' && state.error) {
    return <Failed what="Patients could not be listed." error={state.error} onRetry={retry} />;
  }
  if (state.status === 'loading') return <Loading label="Loading patients…" />;
  if (total === 0) {
    return searched ? (
      <Empty title="No patient matches the search.">
        <button type="button" className="button" onClick={onClear}>
          Clear the search
        </button>
      </Empty>
    ) : (
      <Empty title="No patients yet.">
        <p className="muted">
          A patient appears here with their first protocol or order, by their Patient ID.
        </p>
        <Link href="/protocols/new" className="button button-primary">
          New protocol
        </Link>
      </Empty>
    );
  }
  return (
    <>
      <PageError
        error={state.pageError}
        what="Some patients could not be loaded."
        onRetry={retry}
      />
      <div ref={scroller} className="list-scroller patient-scroller" aria-busy={state.stale}>
        <ul
          aria-label="Patients"
          className="list-rows"
          style={{ height: virtualizer.getTotalSize() }}
          onKeyDown={onKeyDown}
        >
          {items.map((item) => {
            const p = rowAt(state, PAGE, item.index);
            return (
              <VirtualRow
                key={p ? `${item.index}:${p.sourceId}` : item.index}
                index={item.index}
                total={total}
                start={item.start}
                height={ROW_HEIGHT}
              >
                {p ? (
                  <Link href={patientHref(p.sourceId)} className="row-link">
                    <span className="row-main">
                      <span className="row-title">{p.name || 'Unnamed patient'}</span>
                      <span className="row-meta muted">
                        Patient ID <span className="code">{p.sourceId}</span>
                      </span>
                    </span>
                    <span className="row-side">
                      <span className="row-figure">
                        {plural(p.protocols, 'protocol')} · {plural(p.orders, 'order')}
                      </span>
                      <span className="row-meta muted">
                        {p.lastOrderedAt
                          ? `Last ordered ${formatDate(p.lastOrderedAt)}`
                          : 'Never ordered'}
                      </span>
                    </span>
                  </Link>
                ) : (
                  <SkeletonRow label="Loading patient…" />
                )}
              </VirtualRow>
            );
          })}
        </ul>
      </div>
    </>
  );
}
