import type { Clock } from '../clock';
import type { ServerClock } from '../api/server-clock';
import type { StoredJob } from './job-model';

/**
 * How long before the server's time of sending a write whose outcome is unknown may have taken
 * effect: the server's time is known to a second or so from its answers, so a margin of
 * SERVER_TIME_MARGIN_MS is wide; when no answer had told it when the write went, it is guessed
 * from the steady clock and known far less well (UNKNOWN_TIME_MARGIN_MS).
 */
export const SERVER_TIME_MARGIN_MS = 30_000;
export const UNKNOWN_TIME_MARGIN_MS = 5 * 60_000;

/**
 * When an attempt was sent, in the server's time, and the server time before which it cannot
 * have taken effect: recorded by the claim (`sentServerAt`), or, when no answer had told the
 * server's time then, the job's steady send time moved by how far the server's time is from the
 * steady clock now.
 */
export function sentWindow(
  job: Pick<StoredJob, 'sentAt' | 'sentServerAt' | 'createdAt'>,
  serverTime: Pick<ServerClock, 'now'>,
  steady: Clock,
): { sentAt: number; since: number } {
  const { sentServerAt } = job;
  if (sentServerAt !== null)
    return { sentAt: sentServerAt, since: sentServerAt - SERVER_TIME_MARGIN_MS };
  const sentAt = (job.sentAt ?? job.createdAt) + (serverTime.now() - steady.now());
  return { sentAt, since: sentAt - UNKNOWN_TIME_MARGIN_MS };
}
