import type { Clock } from '../clock';

/**
 * The server's time, as its answers tell it (the HTTP `Date` header), carried forward between
 * answers on a steady clock: decisions against the server (is this order the one our lost create
 * made? is there a recent order for this patient?) compare server timestamps with it, never with
 * the PC's clock, which may be minutes off. `Date` has whole seconds, so a reading is good to
 * about half a second plus the answer's time on the wire.
 */
export class ServerClock {
  /** Server epoch ms minus the steady clock's reading, from the latest answer; null before one. */
  private offset: number | null = null;

  constructor(private readonly steady: Clock) {}

  /** Notes the `Date` header of an answer of the API (ignored when absent or unreadable). */
  observe(date: string | null | undefined): void {
    if (!date) return;
    const ms = Date.parse(date);
    if (Number.isNaN(ms)) return;
    // The server's time was within [ms, ms + 1 s) when it wrote the header.
    this.offset = ms + 500 - this.steady.now();
  }

  /** Whether an answer has told the server's time yet. */
  get known(): boolean {
    return this.offset !== null;
  }

  /** The server's time now (epoch ms); the steady clock's reading until an answer tells it. */
  now(): number {
    return this.steady.now() + (this.offset ?? 0);
  }

  /** The server's time now, or null when no answer has told it yet. */
  nowIfKnown(): number | null {
    return this.offset === null ? null : this.steady.now() + this.offset;
  }
}

/**
 * A fetch that tells `clock` the `Date` of every JSON answer: those are the API's (or its token
 * endpoint's); an HTML page from something in between (a captive portal) is not the server.
 */
export function observingServerTime(inner: typeof fetch, clock: ServerClock): typeof fetch {
  return (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    const res = await inner(input, init);
    if ((res.headers.get('content-type') ?? '').includes('json'))
      clock.observe(res.headers.get('date'));
    return res;
  }) as typeof fetch;
}
