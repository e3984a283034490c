/**
 * The benches, every figure they report, the project's goal for each figure that has one, and
 * what bounds it. This is the one source of the goals: each bench reads its targets from here,
 * records its figures against these ids (bench/report.ts), and `npm run bench` (bench/run-all.ts)
 * writes docs/PERFORMANCE.md from them. bench/README.md explains how each bench measures and
 * keeps the history of its runs.
 */

export type GoalOp = '<' | '<=' | '>=' | '>';

/** A goal on one figure: met when `value op target` holds (in the figure's unit). */
export interface Goal {
  op: GoalOp;
  target: number;
}

export interface BenchSpec {
  /** The file in bench/. */
  file: string;
  /** The npm script that runs it on its own; `npm run bench` runs the same command. */
  script: string;
  title: string;
}

export interface FigureSpec {
  id: string;
  bench: string;
  title: string;
  /** '' for a plain ratio, '×' for a multiple of a limit, else the unit shown after the value. */
  unit: string;
  /** Decimals shown. */
  digits: number;
  /** null: the figure is reported, the project set no goal on it. */
  goal: Goal | null;
  /** What the figure is bound by: the resource that sets it, as the bench's investigation found. */
  bound: string;
}

export const BENCHES = [
  { file: 'sandbox-load.ts', script: 'bench:sandbox', title: 'Sandbox under load' },
  { file: 'protocol-search.ts', script: 'bench:search', title: 'Local protocol search' },
  { file: 'bulk-submit.ts', script: 'bench:bulk', title: 'Bulk submission' },
  { file: 'poller-cycle.ts', script: 'bench:poller', title: 'Order status polling' },
  {
    file: 'status-latency.ts',
    script: 'bench:status-latency',
    title: 'A status change to the row',
  },
  { file: 'order-queue-store.ts', script: 'bench:orders-store', title: 'Order queue, the store' },
  { file: 'protocol-csv.ts', script: 'bench:csv', title: 'CSV import of protocols' },
  {
    file: 'order-export.ts',
    script: 'bench:orders-export',
    title: 'CSV export of the order queue',
  },
  { file: 'renderer-startup.ts', script: 'bench:renderer', title: 'Renderer start-up' },
  { file: 'renderer-editor.ts', script: 'bench:renderer:editor', title: 'Protocol editor' },
  {
    file: 'renderer-order-queue.ts',
    script: 'bench:renderer:orders',
    title: 'Order queue on screen',
  },
  {
    file: 'renderer-protocol-list.ts',
    script: 'bench:renderer:protocols',
    title: 'Protocol list on screen',
  },
  {
    file: 'renderer-palette.ts',
    script: 'bench:renderer:palette',
    title: 'Command palette on screen',
  },
  { file: 'renderer-batch.ts', script: 'bench:renderer:batch', title: 'A batch watched on screen' },
  {
    file: 'renderer-dashboard.ts',
    script: 'bench:renderer:dashboard',
    title: 'Dashboard on screen',
  },
  {
    file: 'renderer-patient.ts',
    script: 'bench:renderer:patient',
    title: 'One patient on screen',
  },
  { file: 'renderer-undo.ts', script: 'bench:renderer:undo', title: 'Undo of an edit on screen' },
  { file: 'schedule-pdf.ts', script: 'bench:schedule-pdf', title: 'Dosing schedule to PDF' },
  {
    file: 'store-encryption.ts',
    script: 'bench:encryption',
    title: 'First-start encryption of a store',
  },
] as const satisfies readonly BenchSpec[];

export type BenchFile = (typeof BENCHES)[number]['file'];

const WAITING_FOR_A_CORE =
  'on a machine shared with other work, wall-clock time here is mostly waiting for a core';

export const FIGURES = [
  // sandbox-load.ts ----------------------------------------------------------------------------
  {
    id: 'sandbox.create-vs-healthz',
    bench: 'sandbox-load.ts',
    title: 'Create order throughput / bare `/healthz` throughput, same server, same run',
    unit: '',
    digits: 3,
    goal: { op: '>=', target: 0.3 },
    bound:
      'The machine: autocannon and the sandbox share the two cores. Quiet, the sandbox runs one ' +
      'full core on both routes, so the ratio is that of server CPU per request (0.30 needs a ' +
      'create at 3.3× the bare route’s CPU; it takes about 4×: validation, pricing, JSON and the ' +
      'SQLite insert), 0.24–0.27 measured; reported blocked, it needs the load generator on ' +
      'another machine or more cores. Busy, autocannon cannot keep the bare route fed and the ' +
      'ratio rises: a busy run’s “met” says nothing.',
  },
  {
    id: 'sandbox.create-cpu-vs-healthz',
    bench: 'sandbox-load.ts',
    title: 'Server CPU per request, create order / bare route',
    unit: '×',
    digits: 1,
    goal: null,
    bound: 'CPU: the handler’s own work and the kernel’s TCP; moves little with other load.',
  },
  {
    id: 'sandbox.list-vs-healthz',
    bench: 'sandbox-load.ts',
    title: 'List orders (page of 10) throughput / bare route',
    unit: '',
    digits: 3,
    goal: null,
    bound: 'CPU of the sandbox’s one core: reading, parsing and reshaping 10 orders per request.',
  },
  {
    id: 'sandbox.create-p99',
    bench: 'sandbox-load.ts',
    title: 'Create order latency, p99 (10 connections)',
    unit: 'ms',
    digits: 2,
    goal: null,
    bound: 'CPU: a saturated server; latency is the queue of 10 connections.',
  },
  // protocol-search.ts -------------------------------------------------------------------------
  {
    id: 'search.p95',
    bench: 'protocol-search.ts',
    title: '`ProtocolsRepo.search` p95 at 100,000 protocols',
    unit: 'ms',
    digits: 2,
    goal: { op: '<', target: 5 },
    bound:
      'CPU: SQLite reads in one process (FTS5 trigram candidates, LIKE re-check, the summaries); ' +
      'the file is in the OS page cache, and each page SQLite’s own cache does not hold is decrypted ' +
      `and checked; ${WAITING_FOR_A_CORE}.`,
  },
  {
    id: 'search.like-vs-fts',
    bench: 'protocol-search.ts',
    title: 'p95 of the LIKE alternative / `ProtocolsRepo.search` p95 (the chosen FTS5 search)',
    unit: '×',
    digits: 1,
    goal: null,
    bound: 'CPU: the LIKE scan reads every row of the search column.',
  },
  {
    id: 'search.list-by-name-p95',
    bench: 'protocol-search.ts',
    title: '`ProtocolsRepo.list` with the total, by name, p95 (what `protocols.list` costs)',
    unit: 'ms',
    digits: 2,
    goal: null,
    bound: 'CPU: counting and sorting every match of a broad search.',
  },
  {
    id: 'search.product-filter-p95',
    bench: 'protocol-search.ts',
    title:
      'The list filtered by a product ("who is on Krill Oil?"), first page and total, p95 at 100,000 protocols',
    unit: 'ms',
    digits: 2,
    goal: { op: '<', target: 50 },
    bound:
      "CPU: SQLite reads the product's entries of protocol_products, walks the sort's index to a " +
      `page and counts the product's protocols; ${WAITING_FOR_A_CORE}.`,
  },
  {
    id: 'search.column-sort-p95',
    bench: 'protocol-search.ts',
    title:
      'A page of the list sorted by a column (products, supply, shipping, last order, next refill, sync), either way, 20 pages deep, p95 at 100,000 protocols',
    unit: 'ms',
    digits: 2,
    goal: null,
    bound:
      "CPU: SQLite walks the column's protocol_columns index a page at a time and checks each " +
      'row on the list index.',
  },
  {
    id: 'search.due-filter-p95',
    bench: 'protocol-search.ts',
    title:
      'The list filtered by a refill window (ran out, within 7, 14 or 30 days), first page and total, p95 at 100,000 protocols',
    unit: 'ms',
    digits: 2,
    goal: null,
    bound:
      "CPU: SQLite reads the window's entries of the refill index, then sorts and counts them.",
  },
  {
    id: 'encryption.search-p95-cost',
    bench: 'protocol-search.ts',
    title:
      '`ProtocolsRepo.search` p95, encrypted store / the same store unencrypted (same data, same queries, each on both in turn)',
    unit: '×',
    digits: 3,
    goal: { op: '<=', target: 1.15 },
    bound:
      'The cipher on each page SQLite reads from the OS into its page cache: AES-256-CBC (AES-NI) and the HMAC-SHA512 check, ' +
      'about 9 µs more a 4 KB page than the 3 µs of a plain read (bench/probes/cipher-page-cost.ts); a page already in the cache costs nothing more. ' +
      'The store’s cache of up to 256 MB (db.ts) keeps what the searches read; with SQLite’s default 16 MB (BENCH_CACHE_MB=16) the LIKE scans and lists between the searches evict it and the cost was 1.33×.',
  },
  {
    id: 'encryption.product-filter-p95-cost',
    bench: 'protocol-search.ts',
    title:
      'Product filter (first page and total) p95, encrypted store / the same store unencrypted (each query on both in turn)',
    unit: '×',
    digits: 3,
    goal: { op: '<=', target: 1.15 },
    bound:
      'As the search: each page read from the OS is decrypted and checked; the filter reads the same product entries and list index pages again and again, which stay in the page cache.',
  },
  // bulk-submit.ts -----------------------------------------------------------------------------
  {
    id: 'bulk.ratio-50ms',
    bench: 'bulk-submit.ts',
    title: 'Bulk / bare loop, 1,000 creates at concurrency 8, 50 ms round trip (median of rounds)',
    unit: '',
    digits: 3,
    goal: { op: '>=', target: 0.97 },
    bound:
      'The network round trip (50 ms injected): both paths wait on it, and the durable commits ' +
      'fit in the wait; on a busy machine the main thread waits for a core instead, as at 10 ms.',
  },
  {
    id: 'bulk.batch-vs-limit-50ms',
    bench: 'bulk-submit.ts',
    title: 'Batch time / the limit 1,000 × 50 ms / 8, 50 ms round trip (median of rounds)',
    unit: '×',
    digits: 3,
    goal: { op: '<=', target: 1.1 },
    bound: 'The network round trip at concurrency 8; on a busy machine, the main thread’s CPU.',
  },
  {
    id: 'bulk.duplicate-check-requests',
    bench: 'bulk-submit.ts',
    title:
      'List-orders requests of the duplicate checks per batch of 1,000 creates, 50 ms round trip (median of rounds)',
    unit: '',
    digits: 0,
    goal: null,
    bound:
      'What the orders made meanwhile fill (about one page of 100 per 100 creates), a read at the ' +
      'batch’s start and one every 5 to 10 s while it sends: the price of checking each create ' +
      'against the server.',
  },
  {
    id: 'bulk.ratio-10ms',
    bench: 'bulk-submit.ts',
    title: 'Bulk / bare loop, 10 ms round trip (median of rounds)',
    unit: '',
    digits: 3,
    goal: { op: '>=', target: 0.95 },
    bound:
      'The machine: the client’s main thread (one durable commit on each send slot’s path, about ' +
      '0.3 ms of SQLite work; WAL, no fsync per commit) shares two cores with the sandbox and V8’s threads; at ' +
      '600 creates a second it is about two-thirds busy and the sends wait for it. Reported ' +
      'blocked: it needs the sandbox on another machine.',
  },
  {
    id: 'bulk.ratio-loopback',
    bench: 'bulk-submit.ts',
    title: 'Bulk / bare loop on loopback (no round trip)',
    unit: '',
    digits: 3,
    goal: null,
    bound:
      'The machine: client, sandbox and V8’s threads share two cores; no longer a goal, since ' +
      'the comparison says little about the code there.',
  },
  {
    id: 'bulk.loop-delay-p99',
    bench: 'bulk-submit.ts',
    title: 'Event-loop delay during a loopback batch, worst p99 of the rounds',
    unit: 'ms',
    digits: 1,
    goal: { op: '<', target: 20 },
    bound: `CPU of the main thread: the store’s commits and the job events between sends; ${WAITING_FOR_A_CORE}.`,
  },
  {
    id: 'bulk.loop-delay-max',
    bench: 'bulk-submit.ts',
    title: 'Event-loop delay during a loopback batch, worst maximum of the rounds',
    unit: 'ms',
    digits: 1,
    goal: { op: '<', target: 100 },
    bound: 'CPU of the main thread, and WAL checkpoints (disk).',
  },
  // poller-cycle.ts ----------------------------------------------------------------------------
  {
    id: 'poller.steady-requests',
    bench: 'poller-cycle.ts',
    title: 'Requests per one-minute poll cycle, steady state, 1,000 active orders (hybrid plan)',
    unit: 'requests',
    digits: 1,
    goal: null,
    bound: 'The poll schedule and the budget (60 requests a minute): a count, not a time.',
  },
  {
    id: 'poller.get-vs-hybrid-steady',
    bench: 'poller-cycle.ts',
    title: 'Requests per steady cycle, one get per due order / hybrid plan',
    unit: '×',
    digits: 1,
    goal: null,
    bound: 'The budget: one get per order runs at it.',
  },
  {
    id: 'poller.change-cycles',
    bench: 'poller-cycle.ts',
    title: 'Cycles until a change of every order is seen (hybrid plan)',
    unit: 'cycles',
    digits: 0,
    goal: null,
    bound: 'The poll schedule (older orders are read less often).',
  },
  // status-latency.ts --------------------------------------------------------------------------
  {
    id: 'status.change-to-row-p95',
    bench: 'status-latency.ts',
    title:
      'Status change on the server to the row, p95, orders under 1 h of 1,000 active, window shown',
    unit: 's',
    digits: 1,
    goal: { op: '<=', target: 15 },
    bound:
      'The fast cadence (an order under 1 h read every 12 s, a cycle every 3 s) and the budget of 20 requests a minute; simulated time, the round trip not counted.',
  },
  {
    id: 'status.requests-per-minute',
    bench: 'status-latency.ts',
    title: 'Poller requests a minute at 1,000 active orders, window shown',
    unit: 'requests',
    digits: 1,
    goal: { op: '<=', target: 20 },
    bound: 'The budget (20 a minute, a third of the account’s 60) caps it; the schedule sets it.',
  },
  {
    id: 'status.any-order-p95',
    bench: 'status-latency.ts',
    title: 'Status change to the row, p95, any of 1,000 active orders, window shown',
    unit: 's',
    digits: 0,
    goal: null,
    bound:
      'The age schedule: only orders under 1 h are read fast, an order of last week hourly; reading all 1,000 every 15 s would take 40 requests a minute.',
  },
  // order-queue-store.ts -----------------------------------------------------------------------
  {
    id: 'orders-store.list-middle',
    bench: 'order-queue-store.ts',
    title: '`OrdersRepo.list`, 100 orders from the middle of 100,000 (median)',
    unit: 'ms',
    digits: 2,
    goal: null,
    bound: 'CPU: walking half the covering index in one process.',
  },
  {
    id: 'orders-store.count-search-cold',
    bench: 'order-queue-store.ts',
    title: 'Count of a search over 100,000 orders right after a write (median)',
    unit: 'ms',
    digits: 2,
    goal: null,
    bound:
      'CPU: a scan of the covering index (about 5,600 pages, 22 MB), decrypted once into the store’s page cache ' +
      '(up to 256 MB); with SQLite’s default 16 MB cache it did not fit, each page was decrypted again at each count, ' +
      'and the count took 79–109 ms, 3–3.9× the plain scan. The next page reuses the count.',
  },
  {
    id: 'orders-store.first-page',
    bench: 'order-queue-store.ts',
    title:
      'The queue’s first page as `orders.list` reads it (100 orders, the total, possible duplicates) among 100,000, right after a write (median)',
    unit: 'ms',
    digits: 2,
    goal: null,
    bound:
      'CPU: the top of the queue index and 100 bodies, in the page cache once read; the total is counted on the smallest index.',
  },
  {
    id: 'encryption.order-queue-first-page-cost',
    bench: 'order-queue-store.ts',
    title:
      'The queue’s first page (`orders.list`, right after a write), encrypted store / the same store unencrypted (medians, each call on both in turn)',
    unit: '×',
    digits: 3,
    goal: { op: '<=', target: 1.15 },
    bound:
      'The page cache: in a running app the first page’s pages stay cached, and the cipher costs nothing; the first read on a connection just opened decrypts and checks each page it reads (5–7 ms more at 100,000 orders).',
  },
  // renderer-startup.ts ------------------------------------------------------------------------
  {
    id: 'renderer.initial-js',
    bench: 'renderer-startup.ts',
    title: 'Initial JS (entry, modulepreloads, bridge), gzip',
    unit: 'KB',
    digits: 1,
    goal: { op: '<', target: 250 },
    bound: 'The build: what the first screen imports (not the machine).',
  },
  {
    id: 'renderer.first-run',
    bench: 'renderer-startup.ts',
    title: 'Browser-host start to the first run’s Connect screen, median',
    unit: 'ms',
    digits: 0,
    goal: null,
    bound: `CPU: store, page, bridge and the lazy chunk in Chromium (software rendering); ${WAITING_FOR_A_CORE}.`,
  },
  {
    id: 'renderer.resume',
    bench: 'renderer-startup.ts',
    title: 'Browser-host start to the catalog rows after auto-resume, median',
    unit: 'ms',
    digits: 0,
    goal: null,
    bound: `CPU: as above, plus starting the embedded sandbox; ${WAITING_FOR_A_CORE}.`,
  },
  // renderer-editor.ts -------------------------------------------------------------------------
  {
    id: 'editor.price-p95',
    bench: 'renderer-editor.ts',
    title: 'Dose change to the updated price preview, p95',
    unit: 'ms',
    digits: 2,
    goal: { op: '<', target: 16 },
    bound: 'CPU of the renderer’s main thread: the product line and the preview re-render.',
  },
  // renderer-undo.ts --------------------------------------------------------------------------
  {
    id: 'undo.edit-to-list-p95',
    bench: 'renderer-undo.ts',
    title: 'Ctrl+Z after an edit to the protocol list showing it as it was, 10,000 protocols, p95',
    unit: 'ms',
    digits: 1,
    goal: { op: '<', target: 50 },
    bound:
      'The undo’s transaction (the step read, the draft written back with its pending change and ' +
      'the activity entry), then the list’s page read again on the `changed` event and painted; ' +
      `${WAITING_FOR_A_CORE}.`,
  },
  {
    id: 'undo.main-p95',
    bench: 'renderer-undo.ts',
    title: 'The same undos in main alone (the step applied, its activity entry), p95',
    unit: 'ms',
    digits: 2,
    goal: null,
    bound: 'CPU: SQLite in one process.',
  },
  // renderer-patient.ts -----------------------------------------------------------------------
  {
    id: 'patient.first-paint',
    bench: 'renderer-patient.ts',
    title: '`#/patients/:id` to the patient painted, 500 orders of theirs among 100,000, median',
    unit: 'ms',
    digits: 0,
    goal: { op: '<', target: 100 },
    bound: `CPU of the renderer (the patient's 500 order rows) and the store's read of them; ${WAITING_FOR_A_CORE}.`,
  },
  // renderer-order-queue.ts --------------------------------------------------------------------
  {
    id: 'orders.first-rows',
    bench: 'renderer-order-queue.ts',
    title: '`#/orders` to the first rows painted, 100,000 orders, median',
    unit: 'ms',
    digits: 0,
    goal: { op: '<', target: 200 },
    bound: `CPU of the renderer (chunk, first render) and the bridge’s round trip to the store; ${WAITING_FOR_A_CORE}.`,
  },
  {
    id: 'orders.worst-frame',
    bench: 'renderer-order-queue.ts',
    title: 'Scrolling the whole queue, worst frame (goal: no frame over 50 ms)',
    unit: 'ms',
    digits: 1,
    goal: { op: '<=', target: 50 },
    bound:
      'CPU of the renderer’s main thread: style, layout and removing the rows scrolled past ' +
      `(native work, software rendering) and GC; ${WAITING_FOR_A_CORE}.`,
  },
  {
    id: 'orders.status-to-row',
    bench: 'renderer-order-queue.ts',
    title:
      "A status change from the poller to its row in the DOM, p95 (goal: one frame; the screen's next refresh paints it)",
    unit: 'ms',
    digits: 1,
    goal: { op: '<=', target: 16.7 },
    bound:
      'The re-read of the rows in view (orders.list over the bridge, the store reading and ' +
      `parsing a page) and React's render of the changed row; ${WAITING_FOR_A_CORE}.`,
  },
  // renderer-protocol-list.ts ------------------------------------------------------------------
  {
    id: 'protocols.keystroke-p95',
    bench: 'renderer-protocol-list.ts',
    title:
      'Keystroke to updated rows, 100,000 protocols, p95 (goal: what this machine allows; aim: one frame)',
    unit: 'ms',
    digits: 1,
    goal: { op: '<=', target: 25 },
    bound:
      'Bound by the machine (bench/README.md): the transport about 1.8 ms and the store 4.5 ms, ' +
      "then Chromium's layout and paint, about 9 ms with software rendering; " +
      `${WAITING_FOR_A_CORE}. The one-frame aim (16 ms) is kept in view.`,
  },
  {
    id: 'protocols.store-p95',
    bench: 'renderer-protocol-list.ts',
    title: "The same keystrokes' pages of rows in the store alone, p95",
    unit: 'ms',
    digits: 1,
    goal: null,
    bound: 'CPU: SQLite in one process.',
  },
  {
    id: 'protocols.ipc-round-trip-p95',
    bench: 'renderer-protocol-list.ts',
    title:
      'Baseline of the keystroke: its own call (protocols.list) for a text found nowhere, which the store answers at once, page to host and back, p95, in the same run',
    unit: 'ms',
    digits: 1,
    goal: null,
    bound:
      "The browser host's transport: a WebSocket message through Chromium's network service to the host and back, on two cores shared with Chromium's processes.",
  },
  {
    id: 'protocols.count-p95',
    bench: 'renderer-protocol-list.ts',
    title: "The same keystrokes' counts of matches in the store alone, p95 (after the rows)",
    unit: 'ms',
    digits: 1,
    goal: null,
    bound: 'CPU: SQLite reads every match of a broad search.',
  },
  // renderer-dashboard.ts ---------------------------------------------------------------------
  {
    id: 'dashboard.first-paint-p50',
    bench: 'renderer-dashboard.ts',
    title: 'Dashboard: opened to its figures and charts, 100,000 orders, p50',
    unit: 'ms',
    digits: 1,
    goal: { op: '<', target: 200 },
    bound:
      'The store: `dashboardSummary` reads sums its triggers keep (per UTC day and month, and ' +
      'per quarter hour at the edges: migrations 16 and 18), about 2 ms; then React and uPlot ' +
      `draw six charts; ${WAITING_FOR_A_CORE}.`,
  },
  {
    id: 'dashboard.status-change-p50',
    bench: 'renderer-dashboard.ts',
    title: 'Dashboard: a status written in main to the figure changed on screen, p50',
    unit: 'ms',
    digits: 1,
    goal: { op: '<', target: 50 },
    bound:
      'The live query: a change re-reads the summary (a few ms from the kept sums) and the charts ' +
      `are drawn again; ${WAITING_FOR_A_CORE}.`,
  },
  {
    id: 'dashboard.store-p50',
    bench: 'renderer-dashboard.ts',
    title: '`dashboardSummary` in the store alone, 100,000 orders, p50',
    unit: 'ms',
    digits: 1,
    goal: null,
    bound: 'CPU: SQLite reading the sums kept by triggers (days, months, quarter hours), one core.',
  },
  // renderer-palette.ts -----------------------------------------------------------------------
  {
    id: 'palette.keystroke-p95',
    bench: 'renderer-palette.ts',
    title:
      'Command palette: keystroke to its options, 100,000 protocols and 100,000 orders, p95 (goal: one frame)',
    unit: 'ms',
    digits: 1,
    goal: { op: '<', target: 16 },
    bound:
      'Mostly the machine (bench/README.md, 2026-11-29 split): at p50 the page 3 ms before the ' +
      'call and 1 ms after the answer, the host’s read 2–3 ms, and the answer’s way from the ' +
      'host’s socket to the page 3 ms (p95 15 ms) against 0.75 ms idle: it waits for cores ' +
      'that Chromium’s two frames a keystroke (software rendering) and the host share; the ' +
      'store’s p95 is Patient ID prefixes whose matches come late in the list’s order; ' +
      `${WAITING_FOR_A_CORE}.`,
  },
  {
    id: 'palette.store-p95',
    bench: 'renderer-palette.ts',
    title: "The same keystrokes' `paletteSearch` in the store alone, p95",
    unit: 'ms',
    digits: 1,
    goal: null,
    bound:
      'CPU: SQLite in one process; a text whose every trigram is common walks the list’s order ' +
      'until 50 match (Patient ID prefixes: 4–9 ms); one or two letters walk the newest 2,000 only.',
  },
  {
    id: 'palette.ipc-round-trip-p95',
    bench: 'renderer-palette.ts',
    title:
      'Baseline of the keystroke: its own call (palette.search) for a blank text, which main answers without the store, page to host and back, p95, in the same run',
    unit: 'ms',
    digits: 1,
    goal: null,
    bound:
      "The browser host's transport: a WebSocket message through Chromium's network service to the host and back, on two cores shared with Chromium's processes.",
  },
  // renderer-batch.ts --------------------------------------------------------------------------
  {
    id: 'batch.long-tasks',
    bench: 'renderer-batch.ts',
    title: 'Renderer long tasks (over 50 ms) while watching 1,000-protocol batches',
    unit: 'long tasks',
    digits: 0,
    goal: { op: '<=', target: 0 },
    bound:
      'CPU of the renderer’s main thread: the run view’s first render of 1,000 items right after ' +
      `submit; ${WAITING_FOR_A_CORE}.`,
  },
  {
    id: 'batch.open-vs-no-window',
    bench: 'renderer-batch.ts',
    title: 'Batch wall time, window open / no window, 50 ms round trip (medians)',
    unit: '',
    digits: 3,
    goal: { op: '<=', target: 1.1 },
    bound:
      'The network round trip (50 ms injected, concurrency 4); the host’s main thread serves ' +
      'both cases.',
  },
  {
    id: 'batch.host-cpu-open-vs-no-window',
    bench: 'renderer-batch.ts',
    title: 'Host main-thread CPU per batch, window open / no window (medians)',
    unit: '×',
    digits: 3,
    goal: null,
    bound: 'CPU of the host’s main thread: what watching costs the main process.',
  },
  // schedule-pdf.ts ----------------------------------------------------------------------------
  {
    id: 'schedule.pdf-median',
    bench: 'schedule-pdf.ts',
    title: 'Dosing schedule of 8 products printed to PDF (Chromium), median',
    unit: 'ms',
    digits: 0,
    goal: { op: '<', target: 1000 },
    bound:
      'CPU of Chromium’s renderer and its PDF backend (print layout, Skia’s PDF output), and the ' +
      `bytes crossing to Playwright; ${WAITING_FOR_A_CORE}.`,
  },
  {
    id: 'schedule.pdf-p95',
    bench: 'schedule-pdf.ts',
    title: 'Dosing schedule of 8 products printed to PDF (Chromium), p95',
    unit: 'ms',
    digits: 0,
    goal: { op: '<', target: 1000 },
    bound: `As the median; ${WAITING_FOR_A_CORE}.`,
  },
  // protocol-csv.ts ----------------------------------------------------------------------------
  {
    id: 'csv.preview',
    bench: 'protocol-csv.ts',
    title: 'CSV import preview of 10,000 rows (read, check every row, find repeats), median',
    unit: 'ms',
    digits: 0,
    goal: { op: '<', target: 5000 },
    bound:
      'CPU in one process: csv-parse and the shared zod rules on every row, then the catalog ' +
      `look-ups; ${WAITING_FOR_A_CORE}.`,
  },
  {
    id: 'csv.commit',
    bench: 'protocol-csv.ts',
    title: 'CSV import commit of 10,000 drafts in one transaction, median',
    unit: 'ms',
    digits: 0,
    goal: { op: '<', target: 5000 },
    bound:
      'CPU and the disk: the FTS5 index and a pending job row per draft, then one fsync at the ' +
      'commit; each page written is encrypted, then read back and encrypted again by the checkpoint.',
  },
  {
    id: 'csv.commit-vs-one-by-one',
    bench: 'protocol-csv.ts',
    title: 'Commit / the same drafts written one by one in one transaction (medians)',
    unit: '',
    digits: 2,
    goal: null,
    bound: 'FTS5 flushing its pending index data at every per-row savepoint of the baseline.',
  },
  {
    id: 'encryption.csv-commit-cost',
    bench: 'protocol-csv.ts',
    title:
      'CSV import commit of 10,000 drafts, encrypted store / the same store unencrypted (medians, the same drafts, runs alternating)',
    unit: '×',
    digits: 3,
    goal: { op: '<=', target: 1.3 },
    bound:
      'The cipher on each page written: encrypted with its HMAC as the commit writes it to the log, then read back, checked and encrypted again by the checkpoint at the commit’s end, and 10% more pages (80 bytes of each 4 KB page hold its IV and HMAC). The commit’s own work (FTS5, JSON, the job rows) is the same.',
  },
  // order-export.ts ----------------------------------------------------------------------------
  {
    id: 'orders-export.all',
    bench: 'order-export.ts',
    title: 'CSV export of the whole queue, 100,000 orders, median',
    unit: 'ms',
    digits: 0,
    goal: { op: '<', target: 5000 },
    bound:
      'CPU in one process: reading and parsing each stored order (JSON, then zod), making its ' +
      `cells, csv-stringify; ${WAITING_FOR_A_CORE}.`,
  },
  {
    id: 'orders-export.all-heap',
    bench: 'order-export.ts',
    title: 'Heap growth over the export of the whole queue',
    unit: 'MB',
    digits: 0,
    goal: null,
    bound: 'The CSV text itself (one string) and one chunk of 1,000 rows.',
  },
  {
    id: 'orders-export.filtered',
    bench: 'order-export.ts',
    title: 'CSV export of a filtered queue (one status and a search word), median',
    unit: 'ms',
    digits: 0,
    goal: null,
    bound: 'CPU: the queue index and the search, then the matching rows.',
  },
  // store-encryption.ts ------------------------------------------------------------------------
  {
    id: 'encryption.first-start-100k',
    bench: 'store-encryption.ts',
    title:
      'First start over a plain data folder with a store of 100,000 protocols: `Startup.begin` to ready (every store encrypted, then the Core opened)',
    unit: 's',
    digits: 1,
    goal: { op: '<', target: 30 },
    bound:
      'The cipher and the disk, in a worker thread: the copy, the rekey (each page read, encrypted and written, its old version to the rollback journal first), a quick_check of the plain file before it and of the encrypted copy after it with every table’s rows counted, the swap; then the Core opens the store with its quick_check, every page decrypted and checked.',
  },
  {
    id: 'encryption.encrypt-file-100k',
    bench: 'store-encryption.ts',
    title: '`encryptStoreFile` of the 100,000-protocol store alone (copy, rekey, checks, swap)',
    unit: 's',
    digits: 1,
    goal: null,
    bound:
      'As the first start, for the connection store alone: about a third copying and checking the plain file, a third the rekey, a third checking the encrypted copy.',
  },
  {
    id: 'encryption.progress-max-gap',
    bench: 'store-encryption.ts',
    title:
      'The first start’s progress bar: the longest it stood still while encrypting (100,000 protocols)',
    unit: 's',
    digits: 2,
    goal: null,
    bound:
      'What the bar counts: the bytes copied, then the rekey’s rollback journal. The worker’s checks before the rekey (quick_check of the plain file) and after it (quick_check and row counts of the encrypted copy), and the Core’s quick_check at open, report nothing: the bar stands still at half, then at full, through them.',
  },
  {
    id: 'encryption.open-cost',
    bench: 'store-encryption.ts',
    title:
      'Opening the 100,000-protocol store with quick_check, encrypted / the same store plain (medians, in turn)',
    unit: '×',
    digits: 2,
    goal: null,
    bound:
      'quick_check reads every page of the file: each one decrypted and checked (HMAC-SHA512), about 3.5× the plain read.',
  },
] as const satisfies readonly FigureSpec[];

export type FigureId = (typeof FIGURES)[number]['id'];

export function figureSpec(id: string): FigureSpec {
  const spec = (FIGURES as readonly FigureSpec[]).find((f) => f.id === id);
  if (!spec) throw new Error(`unknown bench figure "${id}" (bench/goals.ts lists them)`);
  return spec;
}

/** The goal of a figure that has one (a bench prints its own verdict against it). */
export function goalOf(id: FigureId): Goal {
  const goal = figureSpec(id).goal;
  if (!goal) throw new Error(`bench figure "${id}" has no goal`);
  return goal;
}

export function goalMet(value: number, goal: Goal): boolean {
  switch (goal.op) {
    case '<':
      return value < goal.target;
    case '<=':
      return value <= goal.target;
    case '>=':
      return value >= goal.target;
    case '>':
      return value > goal.target;
  }
}
