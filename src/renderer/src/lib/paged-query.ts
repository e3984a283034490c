import type { IpcError, IpcResult } from '@shared/ipc';
import type { Coalescer } from './coalesce';
import { dependencies, rereader, type Query, type Read } from './live-query';

/** One page of a list as main answers it. */
export interface Page<Row> {
  rows: Row[];
  /** How many rows the list has in all; absent from the pages of a list that counts apart. */
  total?: number;
  /** What reads the page after this one (a keyset cursor), or null; unused by offset lists. */
  next: string | null;
}

/**
 * Reads page `index` of the list through `read` (live-query.ts). `after` is the `next` of page
 * index - 1 (null for the first page): a keyset list needs it, an offset list reads
 * `index * pageSize` and ignores it.
 */
export type PageReader<Row> = (
  read: Read,
  index: number,
  after: string | null,
) => Promise<IpcResult<Page<Row>>>;

export interface PagedState<Row> {
  status: 'loading' | 'ready' | 'failed';
  /** Why the first page could not be read (status 'failed'). */
  error: IpcError | null;
  /** A page that failed while scrolling: the rows already there stay; `retry` asks again. */
  pageError: IpcError | null;
  total: number;
  /**
   * Whether `total` is the list's count. False while a list that counts apart (options.count)
   * shows the first rows of new arguments and waits for their count: `total` is then the rows
   * read so far.
   */
  counted: boolean;
  /** The pages read, by index: page k holds rows k * pageSize onward. */
  pages: ReadonlyMap<number, readonly Row[]>;
  /** True from new arguments (a search typed) until the first page answers them. */
  stale: boolean;
}

export interface PagedQueryOptions<Row> {
  read: PageReader<Row>;
  pageSize: number;
  /** Offset paging: any page can be read first. Keyset paging reads page k after page k - 1. */
  randomAccess: boolean;
  /**
   * How many rows the list has in all, when its pages do not say (a count that reads every
   * match would hold back the rows): asked after the pages are shown, unless a page that is not
   * full already told.
   */
  count?: Query<number>;
  onState: (state: PagedState<Row>) => void;
  /** Pages kept; those farthest from the view are dropped beyond this. Default 40. */
  maxPages?: number;
}

/** A list before its first page is read. */
export const NOTHING_READ: PagedState<never> = {
  status: 'loading',
  error: null,
  pageError: null,
  total: 0,
  counted: false,
  pages: new Map(),
  stale: true,
};

/** Pages read at the same time while the user scrolls. */
const MAX_IN_FLIGHT = 2;
/** Pages a change re-reads at most (the view is rarely more). */
const MAX_REREAD = 5;

/** The row at `index` of a paged list, when its page is read. */
export function rowAt<Row>(
  state: Pick<PagedState<Row>, 'pages'>,
  pageSize: number,
  index: number,
): Row | undefined {
  return state.pages.get(Math.floor(index / pageSize))?.[index % pageSize];
}

/**
 * A list read a page at a time as it scrolls (after Actual Budget's pagedQuery), kept up to date:
 * a change of a subject of what it read re-reads the pages in view and the total, and drops the
 * others (read again when scrolled to). New arguments (`setRead`) read the first page at once,
 * keeping the rows shown until it answers. An answer read for older arguments is dropped here.
 */
export class PagedQuery<Row> {
  private state: PagedState<Row> = NOTHING_READ;
  private read: PageReader<Row>;
  /** The `after` of each page read (keyset lists read page k with the `next` of page k - 1). */
  private afters = new Map<number, string | null>([[0, null]]);
  private inFlight = new Set<number>();
  private view = { first: 0, last: 0 };
  /** Bumped by new arguments and by each re-read: answers read before are dropped. */
  private version = 0;
  private closed = false;
  private readonly rereads: Coalescer;
  private readonly through: Read;
  private readonly stop: () => void;

  constructor(private readonly o: PagedQueryOptions<Row>) {
    this.read = o.read;
    this.rereads = rereader(() => this.reread());
    const deps = dependencies(() => this.rereads.request());
    this.through = deps.read;
    this.stop = deps.stop;
    this.rereads.flush();
  }

  get current(): PagedState<Row> {
    return this.state;
  }

  /** New arguments (a search, a filter, a sort): the first page, as soon as it can be read. */
  setRead(read: PageReader<Row>): void {
    this.read = read;
    this.version++;
    this.afters = new Map([[0, null]]);
    this.inFlight.clear();
    this.set({ stale: true, pageError: null });
    this.rereads.flush();
  }

  /** The rows on screen (indexes, inclusive): their pages are read when missing. */
  setView(firstRow: number, lastRow: number): void {
    const size = this.o.pageSize;
    this.view = {
      first: Math.max(0, Math.floor(firstRow / size)),
      last: Math.max(0, Math.floor(lastRow / size)),
    };
    this.pump();
  }

  /** Reads again what is in view (after a failure). */
  retry(): void {
    if (this.state.pageError) this.set({ pageError: null });
    this.rereads.flush();
  }

  close(): void {
    this.closed = true;
    this.stop();
    this.rereads.cancel();
  }

  private set(change: Partial<PagedState<Row>>): void {
    if (this.closed) return;
    this.state = { ...this.state, ...change };
    this.o.onState(this.state);
  }

  /** Reads the pages in view (at most MAX_REREAD) afresh; the pages out of view are dropped. */
  private async reread(): Promise<void> {
    const version = ++this.version;
    const size = this.o.pageSize;
    const first = this.state.stale ? 0 : this.view.first;
    const last = Math.min(this.state.stale ? 0 : this.view.last, first + MAX_REREAD - 1);
    this.inFlight.clear();
    const fresh = new Map<number, readonly Row[]>();
    const afters = new Map(this.afters);
    let total = this.state.stale ? 0 : this.state.total;
    /** Whether the pages read told the count: their own total, or a page that is not full. */
    let told = false;
    const readOne = async (index: number) => {
      const result = await this.read(this.through, index, afters.get(index) ?? null);
      if (!result.ok) return result.error;
      const { rows, next, total: pageTotal } = result.value;
      fresh.set(index, rows);
      afters.set(index + 1, next);
      if (pageTotal !== undefined || rows.length < size) {
        total = pageTotal ?? index * size + rows.length;
        told = true;
      } else if (!told) total = Math.max(total, (index + 1) * size);
      return null;
    };
    let error: IpcError | null = null;
    if (this.o.randomAccess) {
      const pages = Array.from({ length: last - first + 1 }, (_, i) => first + i);
      const errors = await Promise.all(pages.map(readOne));
      error = errors.find((e) => e !== null) ?? null;
    } else {
      for (let k = first; k <= last && afters.has(k); k++) {
        error = await readOne(k);
        if (error || afters.get(k + 1) === null) break;
      }
    }
    if (this.closed || version !== this.version) return;
    if (error && this.state.stale) {
      // The first page of new arguments failed: nothing shown answers them.
      this.set({ status: 'failed', error, pages: new Map(), total: 0, stale: false });
      return;
    }
    if (error) {
      // A failed re-read keeps what is shown; the next change or a retry reads again.
      this.set({ pageError: error });
      return;
    }
    this.afters = afters;
    // A page past the end (the list shrank) is not kept.
    for (const index of fresh.keys()) if (index * size >= Math.max(total, 1)) fresh.delete(index);
    const counting = !told && this.o.count !== undefined;
    this.set({
      status: 'ready',
      error: null,
      pageError: null,
      pages: fresh,
      total,
      // A change re-read keeps the count shown until the new one answers; new arguments do not.
      counted: !counting || (this.state.counted && !this.state.stale),
      stale: false,
    });
    this.pump();
    // Not awaited: the next keystroke's rows need not wait for this count.
    if (counting) void this.readCount(version);
  }

  /** The count of a list that counts apart, after its rows are shown. */
  private async readCount(version: number): Promise<void> {
    const result = await this.o.count!(this.through);
    if (this.closed || version !== this.version) return;
    if (!result.ok) {
      this.set({ pageError: result.error });
      return;
    }
    this.set({ total: result.value, counted: true });
    this.pump();
  }

  /** Reads the missing pages in view, at most MAX_IN_FLIGHT at a time. */
  private pump(): void {
    const s = this.state;
    if (s.status !== 'ready' || s.stale || s.pageError) return;
    for (let k = this.view.first; k <= this.view.last && this.inFlight.size < MAX_IN_FLIGHT; k++) {
      if (k * this.o.pageSize >= s.total) break;
      if (s.pages.has(k) || this.inFlight.has(k)) continue;
      if (!this.o.randomAccess && !this.afters.has(k)) {
        // A keyset list reads the pages before this one first.
        const known = Math.max(...[...this.afters.keys()].filter((i) => i < k));
        if (!s.pages.has(known) && !this.inFlight.has(known)) void this.readPage(known);
        return;
      }
      void this.readPage(k);
    }
  }

  private async readPage(index: number): Promise<void> {
    const version = this.version;
    this.inFlight.add(index);
    const result = await this.read(this.through, index, this.afters.get(index) ?? null);
    if (this.closed || version !== this.version) return;
    this.inFlight.delete(index);
    if (!result.ok) {
      this.set({ pageError: result.error });
      return;
    }
    this.afters.set(index + 1, result.value.next);
    const { rows, total } = result.value;
    this.set({
      pages: this.trim(new Map(this.state.pages).set(index, rows)),
      ...(total !== undefined ? { total } : {}),
    });
    this.pump();
  }

  /** Keeps at most maxPages pages: those nearest to the view. */
  private trim(pages: Map<number, readonly Row[]>): Map<number, readonly Row[]> {
    const max = this.o.maxPages ?? 40;
    if (pages.size <= max) return pages;
    const middle = (this.view.first + this.view.last) / 2;
    const keep = [...pages.keys()]
      .sort((a, b) => Math.abs(a - middle) - Math.abs(b - middle))
      .slice(0, max);
    return new Map(keep.map((k) => [k, pages.get(k)!]));
  }
}
