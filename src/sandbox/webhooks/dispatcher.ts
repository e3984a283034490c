import { WEBHOOK_HEADERS } from '@shared/api';
import type { Clock } from '../clock';
import type { DeliveryStore } from '../store/deliveries';
import type { PartnerStore } from '../store/partners';
import { publicHostProblem } from '../public-host';
import { Timer } from '../timer';
import { signWebhook } from './signing';

/** The spec's schedule: the first attempt, then retries after 1, 5 and 30 minutes. */
export const RETRY_DELAYS_MS = [60_000, 300_000, 1_800_000] as const;
/** The spec's acknowledgment limit per attempt. */
export const ATTEMPT_TIMEOUT_MS = 30_000;

export interface DispatcherOptions {
  clock: Clock;
  deliveries: DeliveryStore;
  partners: PartnerStore;
  /** Divides every delay: retry intervals and the attempt timeout. */
  timeScale: number;
  /** Call loopback hosts too (SandboxOptions.allowLoopbackWebhooks); else only public hosts. */
  allowLoopback: boolean;
  /** Attempts in flight at once. */
  concurrency?: number;
  fetch?: typeof fetch;
}

/** What one attempt came to. */
type Attempted =
  { delivered: true; status: number } | { delivered: false; status: number | null; error: string };

/**
 * Sends queued webhooks from the durable outbox: signs each attempt, keeps the same webhook-id
 * on every retry, retries on any non-2xx answer or timeout, then marks the delivery failed.
 */
export class WebhookDispatcher {
  private readonly timer: Timer;
  private inFlight = 0;
  private closed = false;
  private readonly concurrency: number;
  private readonly fetchImpl: typeof fetch;
  private readonly active = new Set<Promise<void>>();
  private readonly closeSignal = new AbortController();

  constructor(private readonly options: DispatcherOptions) {
    this.concurrency = options.concurrency ?? 8;
    this.fetchImpl = options.fetch ?? fetch;
    this.timer = new Timer(() => this.pump());
  }

  private scaled = (ms: number) => ms / this.options.timeScale;

  /** Looks again at the outbox: call after queueing a delivery. */
  poke(): void {
    // A full pipeline is poked again by each attempt as it ends.
    if (this.closed || this.inFlight >= this.concurrency) return;
    this.timer.at(this.options.deliveries.nextDueAt(), this.options.clock.now());
  }

  async close(): Promise<void> {
    this.closed = true;
    this.timer.cancel();
    this.closeSignal.abort();
    await Promise.allSettled([...this.active]);
  }

  private pump(): void {
    if (this.closed) return;
    const free = this.concurrency - this.inFlight;
    if (free > 0) {
      const now = this.options.clock.now();
      // The lease covers the attempt's timeout: if the process dies mid-attempt, it is retried.
      const lease = now + this.scaled(ATTEMPT_TIMEOUT_MS) + 1_000;
      for (const delivery of this.options.deliveries.claimDue(now, free, lease)) {
        this.inFlight++;
        const task = this.attempt(
          delivery.id,
          delivery.partnerId,
          delivery.payload,
          delivery.attempts,
        ).finally(() => {
          this.inFlight--;
          this.active.delete(task);
          this.poke();
        });
        this.active.add(task);
      }
    }
    this.poke();
  }

  private async attempt(
    id: string,
    partnerId: string,
    payload: string,
    attempt: number,
  ): Promise<void> {
    const { partners, deliveries, clock } = this.options;
    const url = partners.settings(partnerId).webhookUrl;
    const secret = partners.webhookSecret(partnerId);
    if (!url || !secret) {
      deliveries.recordFailure(id, null, 'no webhookUrl configured', null);
      return;
    }
    // Checked again at each attempt: a URL stored before this rule, or by a sandbox started with
    // loopback webhooks on the same database, is not called. The attempt fails and is retried on
    // the schedule, so a corrected URL still gets the delivery.
    const refused = publicHostProblem(url, { allowLoopback: this.options.allowLoopback });
    const sent: Attempted = refused
      ? {
          delivered: false,
          status: null,
          error: `not sent: the webhookUrl is ${refused}, not a public host`,
        }
      : await this.post(url, id, secret, payload);
    if (sent.delivered) {
      deliveries.recordSuccess(id, sent.status);
      return;
    }
    if (this.closed) return; // The lease brings it back after a restart.
    const delay = RETRY_DELAYS_MS[attempt - 1];
    deliveries.recordFailure(
      id,
      sent.status,
      sent.error,
      delay === undefined ? null : clock.now() + this.scaled(delay),
    );
  }

  /** One signed POST: delivered on a 2xx answer; otherwise its status, if any, and what went wrong. */
  private async post(url: string, id: string, secret: string, payload: string): Promise<Attempted> {
    const timestamp = Math.floor(this.options.clock.now() / 1000);
    try {
      const response = await this.fetchImpl(url, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'OrderFulfillmentSandbox-Webhooks/1.0',
          [WEBHOOK_HEADERS.id]: id,
          [WEBHOOK_HEADERS.timestamp]: String(timestamp),
          [WEBHOOK_HEADERS.signature]: signWebhook(secret, id, timestamp, payload),
        },
        body: payload,
        signal: AbortSignal.any([
          AbortSignal.timeout(Math.max(1, this.scaled(ATTEMPT_TIMEOUT_MS))),
          this.closeSignal.signal,
        ]),
      });
      const status = response.status;
      await response.body?.cancel().catch(() => undefined);
      return status >= 200 && status < 300
        ? { delivered: true, status }
        : { delivered: false, status, error: `answered ${status}` };
    } catch (e) {
      return {
        delivered: false,
        status: null,
        error:
          e instanceof Error && e.name === 'TimeoutError'
            ? 'timed out'
            : `request failed: ${describe(e)}`,
      };
    }
  }
}

function describe(e: unknown): string {
  if (e instanceof Error) {
    const cause = (e as Error & { cause?: unknown }).cause;
    return cause instanceof Error ? `${e.message} (${cause.message})` : e.message;
  }
  return String(e);
}
