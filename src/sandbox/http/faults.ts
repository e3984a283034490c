import { z } from 'zod';
import { URL_MAX, textLine } from '@shared/api';

/** An HTTP method name, in any case (it is upper-cased). */
export const HTTP_METHOD_PATTERN = /^[A-Za-z]{1,16}$/;

/** Fault injection for reliability tests: PUT /_sandbox/faults. */
export const FaultConfig = z.strictObject({
  /** Added to every matching request before it is handled. */
  latencyMs: z.int().min(0).max(60_000).default(0),
  /** Share of matching requests answered with `errorStatus` before anything is written. */
  errorRate: z.number().min(0).max(1).default(0),
  errorStatus: z.literal([429, 500, 502, 503]).default(503),
  /** Share of matching requests whose write commits but whose connection is then dropped unanswered. */
  dropResponseRate: z.number().min(0).max(1).default(0),
  /** Which requests: method and a path prefix such as "/v1/orders". Absent: every /v1 request. */
  match: z
    .strictObject({
      method: z
        .string()
        .regex(HTTP_METHOD_PATTERN, 'an HTTP method such as POST')
        .toUpperCase()
        .optional(),
      path: textLine(URL_MAX).startsWith('/', 'a path starting with /').optional(),
    })
    .default({}),
  /** After this many injected errors and drops, the faults switch themselves off. Absent: no end. */
  count: z.int().min(1).nullable().default(null),
});
export type FaultConfig = z.infer<typeof FaultConfig>;

export interface FaultDecision {
  latencyMs: number;
  errorStatus: number | null;
  dropResponse: boolean;
}

const NONE: FaultDecision = { latencyMs: 0, errorStatus: null, dropResponse: false };

export class FaultInjector {
  private config: FaultConfig = FaultConfig.parse({});
  private injected = 0;
  /**
   * The server as if gone (practice mode's "offline"): every request's connection is closed
   * unanswered before anything is read or written, the token endpoint included.
   */
  unreachable = false;

  constructor(private readonly random: () => number = Math.random) {}

  get current(): FaultConfig & { injected: number } {
    return { ...this.config, injected: this.injected };
  }

  set(config: FaultConfig): void {
    this.config = config;
    this.injected = 0;
  }

  clear(): void {
    this.set(FaultConfig.parse({}));
  }

  decide(method: string, path: string): FaultDecision {
    const c = this.config;
    if (c.match.method && c.match.method !== method) return NONE;
    if (c.match.path && !path.startsWith(c.match.path)) return NONE;
    const exhausted = c.count !== null && this.injected >= c.count;
    let errorStatus: number | null = null;
    let dropResponse = false;
    if (!exhausted && c.errorRate > 0 && this.random() < c.errorRate) errorStatus = c.errorStatus;
    else if (!exhausted && c.dropResponseRate > 0 && this.random() < c.dropResponseRate)
      dropResponse = true;
    if (errorStatus !== null || dropResponse) this.injected++;
    return { latencyMs: c.latencyMs, errorStatus, dropResponse };
  }
}
