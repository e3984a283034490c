import type { ActivityEntryView } from '@shared/activity-views';
import { PagedList } from '@renderer/components/PagedList';
import { Empty } from '@renderer/components/States';
import type { PagedQueryHook } from '@renderer/lib/use-query';
import { ActivityRow } from './ActivityRow';
import { PAGE } from './use-activity';

const ROW_HEIGHT = 80;

const WORDS = {
  failed: 'The activity record could not be read.',
  loading: 'Loading the activity record…',
  pageFailed: 'Some entries could not be loaded.',
  pending: 'Loading entry…',
};

/** The entries the filters match, newest first, virtualised (100,000 entries stay fast). */
export function ActivityList({
  list,
  filtered,
  onClear,
}: {
  list: PagedQueryHook<ActivityEntryView>;
  filtered: boolean;
  onClear(): void;
}) {
  const empty = filtered ? (
    <Empty title="No entry matches the filters.">
      <button type="button" className="button" onClick={onClear}>
        Clear the filters
      </button>
    </Empty>
  ) : (
    <Empty title="Nothing recorded yet.">
      <p className="muted">
        Each protocol saved, batch submitted, order cancelled, file exported and setting changed on
        this connection is recorded here, with who did it and when.
      </p>
    </Empty>
  );
  return (
    <PagedList
      list={list}
      pageSize={PAGE}
      rowHeight={ROW_HEIGHT}
      label="Activity entries, newest first"
      scrollerClass="activity-scroller"
      words={WORDS}
      empty={empty}
      keyOf={(e) => e.seq}
      renderRow={(e) => <ActivityRow entry={e} />}
    />
  );
}
