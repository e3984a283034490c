import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Outcome } from '@main/jobs/job-model';
import { createLocalStore, type LocalStore } from '@main/stores';
import { batchOf, manualClock, memoryStore } from '@test/support/store-fixtures';
import {
  GRACE_MS,
  fakeKind,
  harness,
  labelOf,
  settle,
  type Harness,
} from '@test/support/runner-harness';
import { openTestDb, TEST_KEY } from '@test/support/store-key';

const open: Harness[] = [];
/** A harness closed after the test. */
function setup(...args: Parameters<typeof harness>): Harness {
  const h = harness(...args);
  open.push(h);
  return h;
}
afterEach(async () => {
  for (const h of open.splice(0)) await h.close();
});

const done = (resultId: string | null = null, write?: () => void): Outcome => ({
  to: 'done',
  resultId,
  ...(write ? { write } : {}),
});
const transport = (message: string) => ({ kind: 'transport' as const, message });
const refused = { kind: 'detail' as const, status: 400, detail: 'Bad request' };

/** A row written by an outcome's `write`, to see whether it was committed with the job's row. */
const mark = (store: LocalStore, key: string) => () => {
  store.db.prepare("INSERT INTO sync_state (key, value) VALUES (?, '1')").run(key);
};
const marks = (store: LocalStore): string[] =>
  (store.db.prepare('SELECT key FROM sync_state ORDER BY key').all() as { key: string }[]).map(
    (r) => r.key,
  );

describe('JobRunner: each transition', () => {
  it('queued → sending → done: claimed in the store before it is sent, then written with its outcome', async () => {
    const kind = fakeKind();
    const h = setup([kind]);
    const id = h.enqueue('a');
    const claimedAt = h.store.clock.now();
    await h.start();
    expect(kind.sent()).toEqual(['a']);
    expect(kind.sends[0]!.job).toMatchObject({
      id,
      state: 'sending',
      attempts: 1,
      sentAt: claimedAt,
      data: { label: 'a' },
    });
    expect(h.job(id)).toMatchObject({ state: 'sending', attempts: 1, sentAt: claimedAt });

    await h.timers.advance(250);
    kind.answer('a', done('r-1', mark(h.store, 'written-with-a')));
    await settle();
    expect(h.job(id)).toMatchObject({
      state: 'done',
      resultId: 'r-1',
      error: null,
      nextAttemptAt: null,
      updatedAt: claimedAt + 250,
    });
    expect(marks(h.store)).toEqual(['written-with-a']);
    await h.timers.advance(600_000);
    expect(kind.sent()).toEqual(['a']); // never sent again
  });

  it('sending → rejected: final, with its error, never sent again', async () => {
    const kind = fakeKind();
    const h = setup([kind]);
    const id = h.enqueue('a');
    await h.start();
    kind.answer('a', { to: 'rejected', error: refused, write: mark(h.store, 'refused') });
    await settle();
    expect(h.job(id)).toMatchObject({ state: 'rejected', error: refused, nextAttemptAt: null });
    expect(marks(h.store)).toEqual(['refused']);
    await h.timers.advance(600_000);
    expect(kind.sent()).toEqual(['a']);
    expect(kind.reconciles).toEqual([]);
  });

  it('sending → queued with backoff: not claimed before next_attempt_at, which grows with the attempts', async () => {
    const kind = fakeKind();
    const h = setup([kind]);
    const id = h.enqueue('a');
    await h.start();
    const t0 = h.store.clock.now();
    kind.answer('a', { to: 'queued', retry: 'backoff', error: transport('503') });
    await settle();
    // attempt 1: a ceiling of 1 s, of which random() = 0 takes the fixed half
    expect(h.job(id)).toMatchObject({
      state: 'queued',
      attempts: 1,
      error: transport('503'),
      nextAttemptAt: t0 + 500,
    });
    await h.timers.advance(499);
    expect(kind.sent()).toEqual(['a']);
    await h.timers.advance(1);
    expect(kind.sent()).toEqual(['a', 'a']);
    expect(kind.sends[1]!.job).toMatchObject({ attempts: 2, sentAt: t0 + 500 });

    kind.answer('a', { to: 'queued', retry: 'backoff', error: transport('503') });
    await settle();
    expect(h.job(id).nextAttemptAt).toBe(t0 + 500 + 1_000); // attempt 2: half of 2 s
    await h.timers.advance(999);
    expect(kind.sent()).toHaveLength(2);
    await h.timers.advance(1);
    expect(kind.sent()).toHaveLength(3);
  });

  it("sending → queued with backoff honours the server's Retry-After", async () => {
    const kind = fakeKind();
    const h = setup([kind]);
    const id = h.enqueue('a');
    await h.start();
    const t0 = h.store.clock.now();
    kind.answer('a', {
      to: 'queued',
      retry: 'backoff',
      retryAfterMs: 30_000,
      error: transport('429'),
    });
    await settle();
    expect(h.job(id).nextAttemptAt).toBe(t0 + 30_000);
    await h.timers.advance(29_999);
    expect(kind.sent()).toEqual(['a']);
    await h.timers.advance(1);
    expect(kind.sent()).toEqual(['a', 'a']);
  });

  it("sending → queued with retry 'now': sent again at once", async () => {
    const kind = fakeKind();
    const h = setup([kind]);
    const id = h.enqueue('a');
    await h.start();
    kind.answer('a', {
      to: 'queued',
      retry: 'now',
      error: transport('not applied'),
      write: mark(h.store, 'requeued'),
    });
    await settle();
    expect(kind.sent()).toEqual(['a', 'a']);
    expect(h.job(id)).toMatchObject({ state: 'sending', attempts: 2, nextAttemptAt: null });
    expect(marks(h.store)).toEqual(['requeued']);
  });

  it('sending → in_doubt (a send that throws, read by the kind): not sent again, reconciled after the grace', async () => {
    const kind = fakeKind();
    const h = setup([kind]);
    const id = h.enqueue('a');
    const claimedAt = h.store.clock.now();
    await h.start();
    await h.timers.advance(1_000);
    kind.fail('a', new Error('socket hang up'));
    await settle();
    expect(h.job(id)).toMatchObject({ state: 'in_doubt', error: transport('socket hang up') });
    // the grace counts from when it became in doubt (1 s after the claim)
    await h.timers.advance(GRACE_MS - 1);
    expect(kind.reconciles).toEqual([]);
    await h.timers.advance(1);
    expect(kind.reconciles.map((r) => r.jobs.map((j) => [j.id, j.state, j.sentAt]))).toEqual([
      [[id, 'in_doubt', claimedAt]],
    ]);
    expect(kind.sent()).toEqual(['a']);
  });

  it('in_doubt → done, queued or rejected, as reconciliation finds', async () => {
    const kind = fakeKind();
    const h = setup([kind]);
    const ids = ['a', 'b', 'c'].map((label) => h.enqueue(label));
    await h.start();
    for (const label of ['a', 'b', 'c'])
      kind.answer(label, { to: 'in_doubt', error: transport('?') });
    await h.timers.advance(GRACE_MS);
    expect(kind.reconciles[0]!.jobs.map(labelOf)).toEqual(['a', 'b', 'c']);
    h.changes.length = 0;
    kind.reconciled({
      a: done('r-a', mark(h.store, 'found-a')),
      b: { to: 'queued', retry: 'now', error: transport('not found: sent again') },
      c: { to: 'rejected', error: refused },
    });
    await settle();
    expect(ids.map((id) => h.job(id).state)).toEqual(['done', 'sending', 'rejected']);
    expect(h.job(ids[0]!)).toMatchObject({ resultId: 'r-a', error: null });
    expect(h.job(ids[1]!).attempts).toBe(2);
    expect(h.job(ids[2]!).error).toEqual(refused);
    expect(marks(h.store)).toEqual(['found-a']);
    expect(kind.sent()).toEqual(['a', 'b', 'c', 'b']);
    expect(h.changes.map((c) => [c.id, c.from, c.state])).toEqual([
      [ids[0], 'in_doubt', 'done'],
      [ids[1], 'in_doubt', 'queued'],
      [ids[2], 'in_doubt', 'rejected'],
      [ids[1], 'queued', 'sending'],
    ]);
  });

  it('a reconciliation that cannot tell (null, or no answer) keeps the job in doubt and reads again later, less often', async () => {
    const kind = fakeKind();
    const h = setup([kind]);
    const a = h.enqueue('a');
    const b = h.enqueue('b');
    await h.start();
    kind.answer('a', { to: 'in_doubt', error: transport('?') });
    kind.answer('b', { to: 'in_doubt', error: transport('?') });
    await h.timers.advance(GRACE_MS);
    kind.reconciled({ a: null }); // b: left out of the answer
    await settle();
    expect([h.job(a).state, h.job(b).state]).toEqual(['in_doubt', 'in_doubt']);
    // first backoff: 500 ms, then 1 s
    await h.timers.advance(499);
    expect(kind.reconciles).toHaveLength(1);
    await h.timers.advance(1);
    expect(kind.reconciles).toHaveLength(2);
    kind.reconciled({ a: null, b: null });
    await h.timers.advance(999);
    expect(kind.reconciles).toHaveLength(2);
    await h.timers.advance(1);
    expect(kind.reconciles).toHaveLength(3);
    kind.reconciled({ a: done(), b: done() });
    await settle();
    expect([h.job(a).state, h.job(b).state]).toEqual(['done', 'done']);
    expect(kind.sent()).toEqual(['a', 'b']);
  });

  it('a reconciliation that throws keeps every job of the round in doubt, and is tried again after a backoff', async () => {
    const kind = fakeKind();
    const h = setup([kind]);
    const ids = [h.enqueue('a'), h.enqueue('b')];
    await h.start();
    kind.answer('a', { to: 'in_doubt', error: transport('?') });
    kind.answer('b', { to: 'in_doubt', error: transport('?') });
    await h.timers.advance(GRACE_MS);
    kind.reconcileFails(new Error('server unreachable'));
    await settle();
    expect(ids.map((id) => h.job(id).state)).toEqual(['in_doubt', 'in_doubt']);
    expect(h.logs.join('\n')).toMatch(
      /reconciliation of 2 order job\(s\) failed: server unreachable/,
    );
    await h.timers.advance(499);
    expect(kind.reconciles).toHaveLength(1);
    await h.timers.advance(1);
    expect(kind.reconciles[1]!.jobs.map(labelOf)).toEqual(['a', 'b']);
    kind.reconciled({ a: done(), b: done() });
    await settle();
    expect(ids.map((id) => h.job(id).state)).toEqual(['done', 'done']);
    expect(kind.sent()).toEqual(['a', 'b']);
  });
});

describe("JobRunner: the kind's preparation", () => {
  it('runs inside the claim (the job is already sending); its data is saved and sent; an outcome settles the job unsent', async () => {
    const store = memoryStore();
    const seen: string[] = [];
    const kind = fakeKind({
      prepare(job) {
        seen.push(`${labelOf(job)}:${store.jobs.get(job.id)?.state}`);
        if (labelOf(job) === 'gone') return { outcome: done('r-gone', mark(store, 'gone')) };
        if (labelOf(job) === 'broken')
          return { outcome: { to: 'rejected', error: { kind: 'local', message: 'incomplete' } } };
        return { data: { label: `${labelOf(job)}+prepared` } };
      },
    });
    const h = setup([kind], { store });
    const ids = [h.enqueue('gone'), h.enqueue('broken'), h.enqueue('a')];
    await h.start();
    expect(seen).toEqual(['gone:sending', 'broken:sending', 'a:sending']);
    expect(kind.sent()).toEqual(['a+prepared']);
    expect(ids.map((id) => h.job(id).state)).toEqual(['done', 'rejected', 'sending']);
    expect(h.job(ids[0]!).resultId).toBe('r-gone');
    expect(h.job(ids[1]!).error).toEqual({ kind: 'local', message: 'incomplete' });
    expect(h.job(ids[2]!).data).toEqual({ label: 'a+prepared' });
    expect(marks(h.store)).toEqual(['gone']);
    expect(h.changes.map((c) => [c.id, c.from, c.state])).toEqual([
      [ids[0], 'queued', 'done'],
      [ids[1], 'queued', 'rejected'],
      [ids[2], 'queued', 'sending'],
    ]);
  });

  it('a preparation that throws settles that job alone, and the claim goes on with the others', async () => {
    const store = memoryStore();
    const kind = fakeKind({
      prepare(job) {
        if (labelOf(job) === 'unreadable') {
          // Its own writes so far are undone with it (the savepoint of this job).
          mark(store, 'half-prepared')();
          throw new TypeError('cannot read the draft');
        }
        if (labelOf(job) === 'damaged')
          throw Object.assign(new Error('database disk image is malformed'), {
            code: 'SQLITE_CORRUPT',
          });
        return { data: job.data };
      },
    });
    const h = setup([kind], { store });
    const ids = [h.enqueue('a'), h.enqueue('unreadable'), h.enqueue('damaged'), h.enqueue('b')];
    await h.start();
    expect(kind.sent()).toEqual(['a', 'b']);
    expect(h.job(ids[1]!)).toMatchObject({
      state: 'rejected',
      error: { kind: 'local', message: 'Its stored data cannot be read: cannot read the draft' },
    });
    // A damaged database is the store's to recover: the job waits in the queue, not refused.
    expect(h.job(ids[2]!)).toMatchObject({
      state: 'queued',
      error: {
        kind: 'local',
        message: 'It could not be read here: database disk image is malformed',
      },
    });
    expect(h.job(ids[2]!).nextAttemptAt).toBeGreaterThan(h.store.clock.now());
    expect(marks(h.store)).toEqual([]);
    expect(h.logs.join('\n')).toMatch(/its preparation failed: cannot read the draft/);
  });
});

describe('JobRunner: a job row that cannot be read', () => {
  it('is refused alone, with a readable reason, and the others are sent', async () => {
    const kind = fakeKind();
    const h = setup([kind]);
    const ids = [h.enqueue('a'), h.enqueue('broken'), h.enqueue('b')];
    // Its error column (its own record, not the kind's data) no longer parses.
    h.store.db.prepare("UPDATE jobs SET error = '{not json' WHERE id = ?").run(ids[1]);
    await h.start();
    expect(kind.sent()).toEqual(['a', 'b']);
    expect(h.job(ids[1]!)).toMatchObject({
      state: 'rejected',
      error: { kind: 'local', message: 'Its stored record cannot be read.' },
      data: { label: 'broken' },
    });
  });
});

describe('JobRunner: a crash at each step', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'job-runner-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const clock = manualClock();
  const openFile = (file: string) =>
    Object.assign(createLocalStore(file, { key: TEST_KEY, clock }), { clock });

  it('the claim is committed before the request leaves', async () => {
    const file = join(dir, 'a.db');
    const store = openFile(file);
    const other = openTestDb(file, { readonly: true });
    const seen: unknown[] = [];
    const kind = fakeKind({
      onSend: (job) =>
        seen.push(other.prepare('SELECT state, attempts FROM jobs WHERE id = ?').get(job.id)),
    });
    const h = setup([kind], { store });
    h.enqueue('a');
    await h.start();
    expect(seen).toEqual([{ state: 'sending', attempts: 1 }]);
    other.close();
  });

  it('killed between claim and send: in doubt at the next start, reconciled, and only then sent again', async () => {
    const file = join(dir, 'b.db');
    const before = openFile(file);
    const first = fakeKind({
      onSend: () => before.db.close(), // the process dies as the request was about to leave
    });
    const h1 = harness([first], { store: before });
    const id = h1.enqueue('a');
    const claimedAt = clock.now();
    await h1.start();
    expect(first.inFlight()).toEqual(['a']);

    const kind = fakeKind();
    const h = setup([kind], { store: openFile(file) });
    h.enqueue('b');
    await h.start();
    expect(h.job(id)).toMatchObject({ state: 'in_doubt', attempts: 1, sentAt: claimedAt });
    expect(h.logs).toContain('1 job(s) were being sent at the last exit: in doubt');
    expect(kind.sent()).toEqual(['b']); // the rest goes on
    await h.timers.advance(GRACE_MS);
    expect(kind.reconciles.map((r) => r.jobs.map(labelOf))).toEqual([['a']]);
    expect(kind.sent()).toEqual(['b']);
    kind.reconciled({ a: { to: 'queued', retry: 'now', error: transport('not on the server') } });
    await settle();
    expect(kind.sent()).toEqual(['b', 'a']);
    expect(h.job(id).attempts).toBe(2);
  });

  it('killed between send and record: in doubt at the next start, settled by reconciliation, never sent again', async () => {
    const file = join(dir, 'c.db');
    const first = fakeKind();
    const h1 = harness([first], { store: openFile(file) });
    const id = h1.enqueue('a');
    const committed = h1.enqueue('b');
    await h1.start();
    expect(first.inFlight()).toEqual(['a', 'b']);
    first.answer('b', done('r-b'));
    await settle();
    h1.store.db.close(); // a's request reached the server, then the process died

    const kind = fakeKind();
    const h = setup([kind], { store: openFile(file) });
    await h.start();
    expect(h.job(id).state).toBe('in_doubt');
    expect(h.job(committed)).toMatchObject({ state: 'done', resultId: 'r-b' });
    await h.timers.advance(GRACE_MS);
    expect(kind.reconciles.map((r) => r.jobs.map(labelOf))).toEqual([['a']]);
    kind.reconciled({ a: done('r-a') });
    await settle();
    expect(h.job(id)).toMatchObject({ state: 'done', resultId: 'r-a', attempts: 1 });
    await h.timers.advance(600_000);
    expect(kind.sent()).toEqual([]);
    expect(kind.reconciles).toHaveLength(1);
  });

  it("an outcome that could not be written at stop is 'sending' on disk, in doubt at the next start", async () => {
    const file = join(dir, 'd.db');
    const first = fakeKind();
    const h1 = harness([first], { store: openFile(file) });
    const id = h1.enqueue('a');
    await h1.start();
    first.answer(
      'a',
      done('r-a', () => {
        throw new Error('disk I/O error');
      }),
    );
    await settle();
    await h1.runner.stop(); // one last try, which fails too
    expect(h1.job(id).state).toBe('sending');
    h1.store.close();

    const kind = fakeKind();
    const h = setup([kind], { store: openFile(file) });
    await h.start();
    expect(h.job(id).state).toBe('in_doubt');
    expect(kind.sent()).toEqual([]);
  });
});

describe('JobRunner: a local write that fails', () => {
  const failing = (store: LocalStore, times: number) => {
    let calls = 0;
    return {
      calls: () => calls,
      write: () => {
        calls++;
        mark(store, `write-${calls}`)(); // rolled back with the job's row when it throws
        if (calls <= times) throw new Error('SQLITE_FULL: database or disk is full');
      },
    };
  };

  it('is tried again with a backoff and recorded once, with one event', async () => {
    const kind = fakeKind();
    const h = setup([kind]);
    const id = h.enqueue('a');
    await h.start();
    const write = failing(h.store, 2);
    h.changes.length = 0;
    kind.answer('a', done('r-a', write.write));
    await settle();
    expect(h.job(id).state).toBe('sending'); // the outcome is not written yet
    expect(marks(h.store)).toEqual([]);
    expect(h.logs.join('\n')).toMatch(
      /job \d+: its outcome \(done\) could not be written: SQLITE_FULL/,
    );
    await h.timers.advance(100);
    expect([write.calls(), h.job(id).state]).toEqual([2, 'sending']);
    await h.timers.advance(200);
    expect(write.calls()).toBe(3);
    expect(h.job(id)).toMatchObject({ state: 'done', resultId: 'r-a' });
    expect(marks(h.store)).toEqual(['write-3']);
    expect(h.changes.map((c) => [c.from, c.state])).toEqual([['sending', 'done']]);
    await h.timers.advance(60_000);
    expect(write.calls()).toBe(3);
    expect(kind.sent()).toEqual(['a']);
  });

  it('that fails every time leaves the job in doubt after RECORD_TRIES, then reconciliation settles it; a drain waits for it', async () => {
    const kind = fakeKind();
    const h = setup([kind]);
    const id = h.enqueue('a');
    await h.start();
    const write = failing(h.store, Infinity);
    kind.answer('a', done('r-a', write.write));
    let drained = false;
    void h.runner.drain('order').then(() => (drained = true));
    await settle();
    // tries at 0, 100, 300, 700 and 1500 ms; at 3100 ms the job is left in doubt
    await h.timers.advance(3_099);
    expect([write.calls(), h.job(id).state, drained]).toEqual([5, 'sending', false]);
    await h.timers.advance(1);
    expect(write.calls()).toBe(5);
    expect(h.job(id)).toMatchObject({
      state: 'in_doubt',
      error: { kind: 'transport', message: expect.stringMatching(/could not be written here/) },
    });
    expect(h.store.jobs.counts({ kind: 'order' }).sending).toBe(0);
    expect(drained).toBe(true);
    expect(marks(h.store)).toEqual([]);

    // the grace counts from when it was left in doubt
    await h.timers.advance(GRACE_MS - 1);
    expect(kind.reconciles).toEqual([]);
    await h.timers.advance(1);
    expect(kind.reconciles.map((r) => r.jobs.map(labelOf))).toEqual([['a']]);
    kind.reconciled({ a: done('r-a', mark(h.store, 'found')) });
    await settle();
    expect(h.job(id)).toMatchObject({ state: 'done', resultId: 'r-a' });
    expect(marks(h.store)).toEqual(['found']);
    expect(kind.sent()).toEqual(['a']);
  });
});

describe('JobRunner: a kind that fails itself', () => {
  it("a failure() that throws leaves the job in doubt, never 'sending'", async () => {
    const kind = fakeKind({
      failure: () => {
        throw new Error('the kind could not read the error');
      },
    });
    const h = setup([kind]);
    const id = h.enqueue('a');
    await h.start();
    kind.fail('a', new Error('socket hang up'));
    await settle();
    expect(h.job(id)).toMatchObject({
      state: 'in_doubt',
      error: transport('the kind could not read the error'),
    });
    expect(kind.sent()).toEqual(['a']);
  });
});

describe('JobRunner: batches, concurrency and queues', () => {
  it('a paused batch has none of its jobs claimed; those in flight finish; continue and wake resume it', async () => {
    const kind = fakeKind();
    const h = setup([kind]);
    const batch = batchOf(h.store, 5, 2);
    await h.start();
    expect(kind.inFlight()).toEqual(['p-0', 'p-1']);
    h.store.batches.setState(batch.id, 'paused');
    kind.answer('p-0', done('o-0'));
    await settle();
    expect(kind.inFlight()).toEqual(['p-1']);
    kind.answer('p-1', done('o-1'));
    await h.timers.advance(600_000);
    expect(kind.sent()).toEqual(['p-0', 'p-1']);
    expect(h.store.batches.progress(batch.id)).toMatchObject({ created: 2, queued: 3 });

    h.store.batches.setState(batch.id, 'running');
    h.runner.wake();
    await settle();
    expect(kind.inFlight()).toEqual(['p-2', 'p-3']);
  });

  it("honours each batch's concurrency, and the kind's for jobs outside batches, each apart", async () => {
    const kind = fakeKind({ concurrency: 2 });
    const h = setup([kind]);
    const wide = batchOf(h.store, 6, 3);
    const narrow = batchOf(h.store, 3, 1);
    for (const label of ['x', 'y', 'z', 'w']) h.enqueue(label);
    await h.start();
    expect(kind.inFlight().sort()).toEqual(['p-0', 'p-0', 'p-1', 'p-2', 'x', 'y']);
    // answer whatever is in flight, oldest first, until everything is done
    for (let i = 0; i < 50 && kind.inFlight().length > 0; i++) {
      const oldest = kind.sends.find((s) => !s.answered)!;
      kind.answer(labelOf(oldest.job), done());
      await settle();
    }
    expect(kind.sent()).toHaveLength(13);
    expect(kind.maxInFlight(wide.id)).toBe(3);
    expect(kind.maxInFlight(narrow.id)).toBe(1);
    expect(kind.maxInFlight(null)).toBe(2);
    expect(h.store.jobs.counts({ kind: 'order' })).toMatchObject({ queued: 0, sending: 0 });
  });

  it('sends the jobs of one queue key one at a time, in id order, whatever their due times', async () => {
    const kind = fakeKind({ name: 'protocol' });
    const h = setup([kind]);
    // A unique index already keeps one live job per key; the claim must not need it.
    h.store.db.exec('DROP INDEX jobs_one_live_per_key');
    const a = h.enqueue('a', { queueKey: 'k', nextAttemptAt: h.store.clock.now() + 5_000 });
    const b = h.enqueue('b', { queueKey: 'k' });
    h.enqueue('other', { queueKey: 'm' });
    await h.start();
    expect(kind.inFlight()).toEqual(['other']); // b waits for a, which is not due yet
    await h.timers.advance(5_000);
    expect(kind.inFlight()).toEqual(['other', 'a']);
    kind.answer('a', { to: 'queued', retry: 'backoff', error: transport('503') });
    await h.timers.advance(1_000);
    expect(kind.inFlight()).toEqual(['other', 'a']);
    kind.fail('a', new Error('timeout')); // in doubt: still ahead of b
    await h.timers.advance(GRACE_MS);
    expect(kind.inFlight()).toEqual(['other']);
    kind.reconciled({ a: done() });
    await settle();
    expect(kind.inFlight()).toEqual(['other', 'b']);
    expect(kind.sent()).toEqual(['other', 'a', 'a', 'b']);
    expect(h.job(a).state).toBe('done');
    expect(h.job(b).state).toBe('sending');
  });

  it('a done job does not hold back a later one of its queue key', async () => {
    const kind = fakeKind({ name: 'protocol' });
    const h = setup([kind]);
    h.enqueue('a', { queueKey: 'k' });
    await h.start();
    kind.answer('a', done());
    await settle();
    h.enqueue('b', { queueKey: 'k' });
    await settle();
    expect(kind.sent()).toEqual(['a', 'b']);
  });

  it('runs each kind on its own: a kind at its concurrency does not hold back another', async () => {
    const orders = fakeKind({ concurrency: 1 });
    const protocols = fakeKind({ name: 'protocol', concurrency: 1 });
    const h = setup([orders, protocols]);
    h.enqueue('o1');
    h.enqueue('o2');
    h.enqueue('p1', { kind: 'protocol' });
    await h.start();
    expect([orders.inFlight(), protocols.inFlight()]).toEqual([['o1'], ['p1']]);
  });
});

describe('JobRunner: a round that takes time', () => {
  it('a job that becomes due while a round runs is sent when it is due, not only at the next wake()', async () => {
    const protocols = fakeKind({ name: 'protocol' });
    let store: (LocalStore & { clock: { advance(ms: number): void } }) | null = null;
    // A slow preparation of an order job: the round outlives the protocol job's wait.
    const orders = fakeKind({
      prepare: (job) => {
        store!.clock.advance(600);
        return { data: job.data };
      },
    });
    const h = setup([protocols, orders]);
    store = h.store;
    // Written straight to the store: no wake() is pending when the runner starts.
    const now = h.store.clock.now();
    const job = (kind: 'protocol' | 'order', label: string, nextAttemptAt: number | null) =>
      h.store.jobs.enqueue({ kind, data: { label }, queueKey: null, nextAttemptAt });
    job('protocol', 'p', now + 500);
    job('order', 'o', null);
    await h.start();
    expect(orders.sent()).toEqual(['o']);
    await h.timers.advance(0);
    expect(protocols.sent()).toEqual(['p']);
  });
});

describe('JobRunner: online, drain, stop', () => {
  it('sends and reconciles nothing while offline, not even into a place freed meanwhile; wake() once online sends', async () => {
    const kind = fakeKind({ concurrency: 1 });
    const h = setup([kind]);
    h.net.online = false;
    h.enqueue('a');
    await h.start();
    await h.timers.advance(600_000);
    expect(kind.sent()).toEqual([]);
    h.net.online = true;
    h.runner.wake();
    await settle();
    expect(kind.sent()).toEqual(['a']);
    h.enqueue('b'); // waits for a's place
    await settle();
    h.net.online = false;
    kind.fail('a', new Error('timeout'));
    await h.timers.advance(600_000);
    expect(kind.sent()).toEqual(['a']);
    expect(kind.reconciles).toEqual([]);
    h.net.online = true;
    h.runner.wake();
    await settle();
    expect(kind.sent()).toEqual(['a', 'b']);
    expect(kind.reconciles).toHaveLength(1);
  });

  it("drain(kind, {now: true}) sends while offline, makes backed-off jobs due, and lifts the kind's forcing when it resolves", async () => {
    const kind = fakeKind();
    const h = setup([kind]);
    h.net.online = false;
    h.enqueue('a');
    h.enqueue('later', { nextAttemptAt: h.store.clock.now() + 60_000 });
    await h.start();
    await h.runner.drain('order'); // offline: resolves at once, nothing sent
    expect(kind.sent()).toEqual([]);

    let drained = false;
    void h.runner.drain('order', { now: true }).then(() => (drained = true));
    await settle();
    expect(kind.inFlight()).toEqual(['a', 'later']);
    kind.answer('a', done());
    await settle();
    expect(drained).toBe(false);
    kind.answer('later', done());
    await settle();
    expect(drained).toBe(true);

    h.enqueue('b'); // still offline, and no drain asks for it
    await h.timers.advance(600_000);
    expect(kind.sent()).toEqual(['a', 'later']);
  });

  it('drain(kind, {now: true}) before start() forces nothing once the runner runs', async () => {
    const kind = fakeKind();
    const h = setup([kind]);
    h.net.online = false;
    h.enqueue('a');
    await h.runner.drain('order', { now: true }); // not running: resolves at once
    await h.start();
    await h.timers.advance(600_000);
    expect(kind.sent()).toEqual([]); // offline, and no drain under way asks for it
  });

  it('drain(kind, {now: true}) reads in-doubt jobs at once, past their reconciliation backoff', async () => {
    const kind = fakeKind();
    const h = setup([kind]);
    h.enqueue('a');
    await h.start();
    kind.fail('a', new Error('timeout'));
    await h.timers.advance(GRACE_MS);
    kind.reconciled({ a: null });
    for (let i = 0; i < 5; i++) {
      await h.timers.advance(60_000);
      kind.reconciled({ a: null });
    }
    await settle(); // now backing off for a while
    const rounds = kind.reconciles.length;
    void h.runner.drain('order', { now: true });
    await settle();
    expect(kind.reconciles).toHaveLength(rounds + 1);
  });

  it('drain resolves once nothing of the kind is due, in flight or being reconciled', async () => {
    const kind = fakeKind({ concurrency: 1 });
    const other = fakeKind({ name: 'protocol' });
    const h = setup([kind, other]);
    await h.runner.drain('order'); // not started: at once
    h.enqueue('a');
    h.enqueue('b');
    h.enqueue('p', { kind: 'protocol' }); // another kind's work does not hold it
    await h.start();
    let drained = false;
    void h.runner.drain('order').then(() => (drained = true));
    kind.answer('a', { to: 'queued', retry: 'now', error: transport('again') });
    await settle();
    kind.answer('a', done());
    await settle();
    expect([kind.inFlight(), drained]).toEqual([['b'], false]);
    kind.fail('b', new Error('timeout'));
    await settle();
    expect(drained).toBe(true); // b in doubt, within its grace

    await h.timers.advance(GRACE_MS);
    expect(kind.reconciling()).toBe(true);
    drained = false;
    void h.runner.drain('order').then(() => (drained = true));
    await settle();
    expect(drained).toBe(false);
    kind.reconciled({ b: done() });
    await settle();
    expect(drained).toBe(true);
    expect(other.inFlight()).toEqual(['p']);
  });

  it('stop() claims nothing more, waits for the jobs in flight and their outcomes, and resolves drains', async () => {
    const kind = fakeKind();
    const h = setup([kind]);
    const a = h.enqueue('a');
    await h.start();
    let drained = false;
    void h.runner.drain('order').then(() => (drained = true));
    let stopped = false;
    void h.runner.stop().then(() => (stopped = true));
    const b = h.enqueue('b');
    await h.timers.advance(10_000);
    expect([stopped, drained, kind.sent()]).toEqual([false, false, ['a']]);
    kind.answer('a', done('r-a'));
    await settle();
    expect([stopped, drained]).toEqual([true, true]);
    expect(h.job(a).state).toBe('done');
    expect(h.job(b).state).toBe('queued');

    h.runner.start(); // and again
    await settle();
    expect(kind.inFlight()).toEqual(['b']);
  });

  it('stop() waits for a reconciliation under way', async () => {
    const kind = fakeKind();
    const h = setup([kind]);
    const a = h.enqueue('a');
    await h.start();
    kind.fail('a', new Error('timeout'));
    await h.timers.advance(GRACE_MS);
    let stopped = false;
    void h.runner.stop().then(() => (stopped = true));
    await settle();
    expect(stopped).toBe(false);
    kind.reconciled({ a: done() });
    await settle();
    expect(stopped).toBe(true);
    expect(h.job(a).state).toBe('done');
  });
});

describe('JobRunner: onChanged', () => {
  it('reports each change after its commit: from, state and error', async () => {
    const kind = fakeKind();
    const states: string[] = [];
    const h: Harness = setup([kind], { onChanged: (c) => states.push(h.job(c.id).state) });
    const batch = batchOf(h.store, 1, 1);
    const [job] = h.store.jobs.ofBatch(batch.id);
    const id = h.enqueue('a', { queueKey: 'k' });
    await h.start();
    kind.fail('a', new Error('socket hang up'));
    kind.answer('p-0', { to: 'rejected', error: refused });
    await h.timers.advance(GRACE_MS);
    kind.reconciled({ a: { to: 'queued', retry: 'now', error: transport('not found') } });
    await settle();
    kind.answer('a', done('r-a'));
    await settle();
    const common = { kind: 'order', batchId: null, queueKey: 'k', id };
    expect(h.changes.filter((c) => c.id === id)).toEqual([
      { ...common, from: 'queued', state: 'sending', error: null },
      { ...common, from: 'sending', state: 'in_doubt', error: transport('socket hang up') },
      { ...common, from: 'in_doubt', state: 'queued', error: transport('not found') },
      { ...common, from: 'queued', state: 'sending', error: null },
      { ...common, from: 'sending', state: 'done', error: null },
    ]);
    expect(h.changes.filter((c) => c.id === job!.id)).toEqual([
      {
        id: job!.id,
        kind: 'order',
        batchId: batch.id,
        queueKey: null,
        from: 'queued',
        state: 'sending',
        error: null,
      },
      {
        id: job!.id,
        kind: 'order',
        batchId: batch.id,
        queueKey: null,
        from: 'sending',
        state: 'rejected',
        error: refused,
      },
    ]);
    // each event comes after the change is committed
    expect(states).toEqual(h.changes.map((c) => c.state));
  });

  it('a listener that throws is logged and changes nothing', async () => {
    const kind = fakeKind();
    const h = setup([kind], {
      onChanged: () => {
        throw new Error('renderer gone');
      },
    });
    const id = h.enqueue('a');
    await h.start();
    kind.answer('a', done());
    await settle();
    expect(h.job(id).state).toBe('done');
    expect(h.logs.filter((l) => /a job listener failed: renderer gone/.test(l))).toHaveLength(2);
  });
});

describe('JobRunner: start', () => {
  it('forgets done jobs outside batches finished more than 7 days ago', async () => {
    const store = memoryStore();
    const old = store.jobs.enqueue({ kind: 'order', data: { label: 'old' } });
    store.jobs.settle(old, ['queued'], { to: 'done', error: null });
    const batch = batchOf(store, 1, 1);
    const [inBatch] = store.jobs.ofBatch(batch.id);
    store.jobs.settle(inBatch!.id, ['queued'], { to: 'done', error: null });
    store.clock.advance(7 * 86_400_000 + 1);
    const recent = store.jobs.enqueue({ kind: 'order', data: { label: 'recent' } });
    store.jobs.settle(recent, ['queued'], { to: 'done', error: null });
    const h = setup([fakeKind()], { store });
    await h.start();
    expect([
      store.jobs.get(old),
      store.jobs.get(inBatch!.id)?.state,
      store.jobs.get(recent)?.state,
    ]).toEqual([null, 'done', 'done']);
  });
});
