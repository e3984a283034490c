import { useCallback, useEffect, useRef, useState } from 'react';
import { LiveQuery, type Pace, type Query, type QueryState } from './live-query';
import { NOTHING_READ, PagedQuery, type PageReader, type PagedState } from './paged-query';

const LOADING = { status: 'loading', data: null, error: null } as const;

/** The key a query's arguments are compared by: equal arguments, the same query. */
const keyOf = (args: readonly unknown[]): string => JSON.stringify(args);

/**
 * A live query for a component: `read` with `args`, read again on each change of a subject of
 * the channels it read (live-query.ts) while the component is mounted. New arguments make a new
 * query (the old one's answers are dropped, and the state is loading until the new one answers).
 */
export function useLiveQuery<T>(
  read: Query<T>,
  args: readonly unknown[],
  pace?: Pace,
): QueryState<T> & { refresh(): void } {
  const [state, setState] = useState<QueryState<T>>(LOADING);
  const query = useRef<LiveQuery<T> | null>(null);
  const latest = useRef(read);
  latest.current = read;
  const key = keyOf(args);
  useEffect(() => {
    setState(LOADING);
    const q = new LiveQuery<T>({
      read: (through) => latest.current(through),
      onState: setState,
      ...(pace ? { pace } : {}),
    });
    query.current = q;
    return () => {
      q.close();
      query.current = null;
    };
    // The pace is a query's constant: a new object each render is not a new query.
  }, [key]);
  const refresh = useCallback(() => query.current?.refresh(), []);
  return { ...state, refresh };
}

export interface PagedQueryHook<Row> {
  state: PagedState<Row>;
  /** The rows on screen (indexes, inclusive). */
  setView(firstRow: number, lastRow: number): void;
  retry(): void;
  /**
   * The read's arguments changed where React does not see them (a store the read looks at):
   * read the first page again at once, keeping the rows shown until it answers.
   */
  restart(): void;
}

/**
 * A paged live query for a component (a virtualised list): new arguments read the first page
 * again, keeping the rows shown (state.stale) until it answers. A list whose pages carry no
 * total gives `count`, read after the rows are shown.
 */
export function usePagedQuery<Row>(
  read: PageReader<Row>,
  args: readonly unknown[],
  o: {
    pageSize: number;
    randomAccess: boolean;
    count?: Query<number>;
  },
): PagedQueryHook<Row> {
  const latest = useRef(read);
  latest.current = read;
  const latestCount = useRef(o.count);
  latestCount.current = o.count;
  const counts = o.count !== undefined;
  const [query, setQuery] = useState<PagedQuery<Row> | null>(null);
  const [state, setState] = useState<PagedState<Row> | null>(null);
  const { pageSize, randomAccess } = o;
  useEffect(() => {
    const q = new PagedQuery<Row>({
      read: (through, index, after) => latest.current(through, index, after),
      pageSize,
      randomAccess,
      ...(counts ? { count: (through) => latestCount.current!(through) } : {}),
      onState: setState,
    });
    setQuery(q);
    setState(q.current);
    return () => q.close();
  }, [pageSize, randomAccess, counts]);
  const key = keyOf(args);
  const seen = useRef<{ query: PagedQuery<Row> | null; key: string }>({ query: null, key });
  useEffect(() => {
    if (!query) return;
    // The first arguments are read by the new query itself; later ones replace them.
    if (seen.current.query === query && seen.current.key !== key)
      query.setRead((through, index, after) => latest.current(through, index, after));
    seen.current = { query, key };
  }, [query, key]);
  const setView = useCallback(
    (first: number, last: number) => query?.setView(first, last),
    [query],
  );
  const retry = useCallback(() => query?.retry(), [query]);
  const restart = useCallback(
    () => query?.setRead((through, index, after) => latest.current(through, index, after)),
    [query],
  );
  return { state: state ?? NOTHING_READ, setView, retry, restart } as PagedQueryHook<Row>;
}
