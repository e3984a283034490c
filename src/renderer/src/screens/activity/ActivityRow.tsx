import { Fragment, type ReactNode } from 'react';
import { Link } from 'wouter';
import type { ActivityEntryView, SubjectList } from '@shared/activity-views';
import { ACTION_WORDS } from '@shared/activity-words';
import { formatDateTime } from '@renderer/lib/dates';
import { patientHref } from '@renderer/lib/patient-href';
import { detailText, personText, shortId } from './activity-format';

/** Ids of a list a row shows (the rest are counted). */
const SHOWN = 3;

const KINDS: {
  list: SubjectList;
  label: string;
  href?: (id: string) => string;
  short?: boolean;
}[] = [
  { list: 'patients', label: 'Patient', href: patientHref },
  { list: 'orders', label: 'Order', href: (id) => `/orders/${encodeURIComponent(id)}` },
  { list: 'protocols', label: 'Protocol', href: (id) => `/protocols/${id}`, short: true },
  { list: 'batches', label: 'Batch', href: (id) => `/batches/${id}`, short: true },
  { list: 'serverProtocols', label: 'Server protocol' },
];

/** The ids an entry touched, each that has a screen as a link to it. */
function Ids({ entry }: { entry: ActivityEntryView }) {
  const parts: ReactNode[] = [];
  for (const kind of KINDS) {
    const ids = entry.subjects[kind.list] ?? [];
    if (ids.length === 0) continue;
    const more = ids.length - SHOWN + (entry.more[kind.list] ?? 0);
    parts.push(
      <span key={kind.list} className="activity-ids-kind">
        {kind.label}{' '}
        {ids.slice(0, SHOWN).map((id, i) => (
          <Fragment key={id}>
            {i > 0 && ', '}
            {kind.href ? (
              <Link
                href={kind.href(id)}
                className="code"
                aria-label={kind.short ? `${kind.label} ${id}` : undefined}
              >
                {kind.short ? shortId(id) : id}
              </Link>
            ) : (
              <span className="code">{kind.short ? shortId(id) : id}</span>
            )}
          </Fragment>
        ))}
        {more > 0 && ` and ${more} more`}
      </span>,
    );
  }
  if (entry.subjects.connection)
    parts.push(
      <span key="connection" className="activity-ids-kind">
        Connection <span className="code">{entry.subjects.connection}</span>
      </span>,
    );
  return parts.length ? <>{parts}</> : <span className="muted">No ids</span>;
}

/**
 * One entry of the record: the action and its facts, who and at which desk, the ids it touched
 * (links to their screens), and its time on this desk's clock and the server's. One focus stop
 * (the arrows move between entries; Tab reaches its links).
 */
export function ActivityRow({ entry }: { entry: ActivityEntryView }) {
  const titleId = `activity-entry-${entry.seq}`;
  const detail = detailText(entry);
  return (
    <article
      className="row-link activity-row"
      tabIndex={0}
      data-row-focus
      aria-labelledby={titleId}
      data-testid="activity-entry"
    >
      <span className="row-main">
        <span className="row-title" id={titleId}>
          {ACTION_WORDS[entry.action]} <span className="activity-seq muted">#{entry.seq}</span>
        </span>
        <span className="row-meta activity-who">
          {personText(entry)} at {entry.deskName}
          {detail && <span className="muted"> · {detail}</span>}
        </span>
        <span className="row-meta activity-ids">
          <Ids entry={entry} />
        </span>
      </span>
      <span className="row-side">
        <time className="row-figure" dateTime={entry.atLocal}>
          {formatDateTime(entry.atLocal)}
        </time>
        <span className="row-meta muted">
          {entry.atServer ? (
            <>
              Server <time dateTime={entry.atServer}>{formatDateTime(entry.atServer)}</time>
            </>
          ) : (
            'Server time unknown'
          )}
        </span>
      </span>
    </article>
  );
}
