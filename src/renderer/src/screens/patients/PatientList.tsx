import { AlertTriangle } from 'lucide-react';
import { Link } from 'wouter';
import type { PatientSummaryView } from '@shared/patient-views';
import { PagedList } from '@renderer/components/PagedList';
import { Empty } from '@renderer/components/States';
import { formatDate } from '@renderer/lib/dates';
import { plural } from '@renderer/lib/format';
import type { PagedQueryHook } from '@renderer/lib/use-query';
import { patientHref } from '@renderer/lib/patient-href';
import { PAGE } from './use-patients';

const ROW_HEIGHT = 60;

const WORDS = {
  failed: 'Patients could not be listed.',
  loading: 'Loading patients…',
  pageFailed: 'Some patients could not be loaded.',
  pending: 'Loading patient…',
};

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
  const empty = searched ? (
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
  return (
    <PagedList
      list={list}
      pageSize={PAGE}
      rowHeight={ROW_HEIGHT}
      label="Patients"
      scrollerClass="patient-scroller"
      words={WORDS}
      empty={empty}
      keyOf={(p, index) => `${index}:${p.sourceId}:${p.person ?? ''}`}
      renderRow={(p) => (
        <Link href={patientHref(p.sourceId, p.sharedId ? p.person : null)} className="row-link">
          <span className="row-main">
            <span className="row-title">{p.name || 'Unnamed patient'}</span>
            <span className="row-meta muted">
              Patient ID <span className="code">{p.sourceId}</span>
              {p.sharedId && (
                <span className="shared-id-flag">
                  <AlertTriangle aria-hidden="true" size={13} /> also used for another name
                </span>
              )}
            </span>
          </span>
          <span className="row-side">
            <span className="row-figure">
              {plural(p.protocols, 'protocol')} · {plural(p.orders, 'order')}
            </span>
            <span className="row-meta muted">
              {p.lastOrderedAt
                ? `Last ordered ${formatDate(p.lastOrderedAt)}${p.lastOrderCancelled ? ' (cancelled)' : ''}`
                : 'Never ordered'}
            </span>
          </span>
        </Link>
      )}
    />
  );
}
