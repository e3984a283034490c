import { afterEach, describe, expect, it } from 'vitest';
import { ApiClientError } from '@main/api/errors';
import { writeFailure } from '@main/jobs/write-failure';
import { fakeKind, harness, settle, type Harness } from '@test/support/runner-harness';

const open: Harness[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) await h.close();
});

const rejectedSecret = new ApiClientError({
  kind: 'unauthorized',
  reason: 'invalid-credentials',
  status: 401,
  message: 'The client id or secret was rejected by the sign-in server.',
});

describe('JobRunner while the credentials are refused', () => {
  it('claims nothing, not even on a drain the user asked for; a job refused in flight waits, due, not failed', async () => {
    const kind = fakeKind({ concurrency: 2, failure: (_job, error) => writeFailure(error) });
    const h = harness([kind]);
    open.push(h);
    const a = h.enqueue('a');
    const b = h.enqueue('b');
    const c = h.enqueue('c');
    await h.start();
    expect(kind.inFlight()).toEqual(['a', 'b']);

    // The secret is refused while a and b are on their way: the session holds at once.
    h.net.held = true;
    kind.fail('a', rejectedSecret);
    kind.fail('b', rejectedSecret);
    await settle();
    for (const id of [a, b]) {
      expect(h.job(id)).toMatchObject({ state: 'queued', nextAttemptAt: null, attempts: 1 });
      expect(h.job(id).error).toMatchObject({ kind: 'transport' });
    }
    expect(h.job(c).state).toBe('queued');
    const drained = h.runner.drain(kind.kind.name, { now: true });
    await h.timers.advance(120_000);
    await drained; // resolves at once: nothing may be sent
    expect(kind.sent()).toEqual(['a', 'b']);
    expect(h.changes.filter((ch) => ch.state === 'rejected')).toEqual([]);

    // A new secret: every waiting job goes, without waiting for a backoff.
    h.net.held = false;
    h.runner.wake();
    await settle();
    expect(kind.inFlight().sort()).toEqual(['a', 'b']);
    kind.answer('a', { to: 'done' });
    kind.answer('b', { to: 'done' });
    await settle();
    expect(kind.inFlight()).toEqual(['c']);
  });
});
