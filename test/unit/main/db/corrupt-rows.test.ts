import { afterEach, describe, expect, it } from 'vitest';
import type { ProtocolRequest } from '@shared/api';
import { JobRunner } from '@main/jobs/job-runner';
import { EDIT_SETTLE_MS } from '@main/protocols/change-queue';
import { protocolJobs } from '@main/protocols/protocol-job';
import { CorruptRowError } from '@main/db';
import {
  GRACE_MS,
  fakeKind,
  harness,
  manualTimers,
  settle,
  type Harness,
} from '@test/support/runner-harness';
import {
  appOrder,
  batchOf,
  memoryStore,
  product,
  protocolRequest,
  serverProtocol,
} from '@test/support/store-fixtures';

function caught(fn: () => unknown): CorruptRowError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(CorruptRowError);
    return e as CorruptRowError;
  }
  throw new Error('expected a CorruptRowError');
}

describe('JSON read back from SQLite is parsed with zod', () => {
  it('a protocol whose draft is not JSON, or has the wrong shape, is a clear error; other reads work', () => {
    const store = memoryStore();
    const good = store.protocols.createDraft(protocolRequest({ sourceId: 'good' }));
    const bad = store.protocols.createDraft(protocolRequest({ sourceId: 'bad' }));
    store.db
      .prepare('UPDATE protocols SET draft = ? WHERE local_id = ?')
      .run('{"customer": ', bad.localId);
    const notJson = caught(() => store.protocols.get(bad.localId));
    expect(notJson.message).toBe(
      `Corrupt row in protocols (local_id=${bad.localId}): draft: is not valid JSON`,
    );
    expect(notJson.table).toBe('protocols');

    const shape = { ...good.draft, customer: { ...good.draft.customer, sourceId: 42 } };
    store.db
      .prepare('UPDATE protocols SET draft = ? WHERE local_id = ?')
      .run(JSON.stringify(shape), bad.localId);
    expect(caught(() => store.protocols.get(bad.localId)).message).toMatch(
      /draft\.customer\.sourceId: .*expected string/,
    );

    expect(store.protocols.get(good.localId)?.sourceId).toBe('good');
    // list and search read columns only: the corrupt draft does not hide the other protocols
    expect(store.protocols.list().items.map((p) => p.sourceId)).toEqual(['bad', 'good']);
    expect(store.jobs.counts({ kind: 'protocol' }).queued).toBe(2);
  });

  it('a bad enum in a column is reported too', () => {
    const store = memoryStore();
    const p = store.protocols.createDraft(protocolRequest());
    store.db.pragma('ignore_check_constraints = ON');
    store.db.prepare("UPDATE protocols SET sync_state = 'weird' WHERE local_id = ?").run(p.localId);
    expect(caught(() => store.protocols.get(p.localId)).message).toMatch(/sync_state/);
  });

  it('orders and products', () => {
    const store = memoryStore();
    store.orders.upsert(appOrder('o_good'), { source: 'pulled' });
    store.orders.upsert(appOrder('o_bad'), { source: 'pulled' });
    // A status the app does not know is kept as it came (read.ts); one that is not text is corrupt.
    store.db
      .prepare("UPDATE orders SET body = json_set(body, '$.status', 42) WHERE id = 'o_bad'")
      .run();
    expect(caught(() => store.orders.get('o_bad')).message).toMatch(
      /^Corrupt row in orders \(id=o_bad\): body\.status/,
    );
    expect(store.orders.get('o_good')?.id).toBe('o_good');

    store.products.upsertMany([product(1), product(2)]);
    store.db.prepare("UPDATE products SET body = json_remove(body, '$.price') WHERE id = 2").run();
    expect(caught(() => store.products.get(2)).message).toMatch(/products \(id=2\): body\.price/);
    expect(store.products.get(1)?.id).toBe(1);
  });

  it('a job whose data or error is not what it should be names the table and the job', () => {
    const store = memoryStore();
    const batch = batchOf(store, 2, 1);
    const [first, second] = store.batches.items(batch.id).map((i) => i.jobId);
    store.db.prepare('UPDATE jobs SET data = \'{"request": \' WHERE id = ?').run(first);
    const notJson = caught(() => store.jobs.get(first!));
    expect(notJson).toMatchObject({ table: 'jobs', key: `id=${first}` });
    expect(notJson.message).toBe(`Corrupt row in jobs (id=${first}): data: is not valid JSON`);

    store.db.prepare('UPDATE jobs SET error = \'{"kind":"martian"}\' WHERE id = ?').run(second);
    expect(caught(() => store.jobs.get(second!)).message).toMatch(
      new RegExp(`^Corrupt row in jobs \\(id=${second}\\): error`),
    );
    expect(caught(() => store.batches.items(batch.id)).table).toBe('jobs');
    // the batch itself, its progress and the other reads still work
    expect(store.batches.get(batch.id)?.total).toBe(2);
    expect(store.batches.progress(batch.id)).toMatchObject({ total: 2, queued: 2 });

    // data that is JSON but not the kind's shape: the batch item names the job too
    store.db.prepare('UPDATE jobs SET data = \'{"request": 1}\', error = NULL').run();
    expect(caught(() => store.batches.items(batch.id)).message).toMatch(
      new RegExp(`^Corrupt row in jobs \\(id=${first}\\): `),
    );
  });
});

describe('the job runner and data its kind cannot read', () => {
  let h: Harness | null = null;
  afterEach(async () => {
    await h?.close();
    h = null;
  });

  it('a queued job whose data does not parse is rejected, unsent; the others are sent', async () => {
    const kind = fakeKind();
    h = harness([kind]);
    const bad = h.enqueue('bad');
    h.store.db.prepare('UPDATE jobs SET data = \'{"label": 42}\' WHERE id = ?').run(bad);
    const good = h.enqueue('good');
    await h.start();
    expect(h.job(bad)).toMatchObject({
      state: 'rejected',
      error: { kind: 'local', message: 'Its stored data cannot be read.' },
    });
    expect(kind.sent()).toEqual(['good']);
    expect(h.job(good).state).toBe('sending');
    expect(h.logs.join('\n')).toMatch(new RegExp(`Corrupt row in jobs \\(id=${bad}\\): label`));
    expect(h.changes.find((c) => c.id === bad)).toMatchObject({
      from: 'queued',
      state: 'rejected',
    });
  });

  it('an in-doubt job whose data does not parse is rejected instead of reconciled', async () => {
    const kind = fakeKind();
    h = harness([kind]);
    const bad = h.enqueue('bad');
    const good = h.enqueue('good');
    await h.start();
    kind.fail('bad', new Error('timeout'));
    kind.fail('good', new Error('timeout'));
    await settle();
    h.store.db.prepare('UPDATE jobs SET data = \'{"label": []}\' WHERE id = ?').run(bad);
    await h.timers.advance(GRACE_MS);
    expect(h.job(bad)).toMatchObject({
      state: 'rejected',
      error: { kind: 'local', message: 'Its stored data cannot be read.' },
    });
    expect(kind.reconciles.map((r) => r.jobs.map((j) => j.id))).toEqual([[good]]);
    kind.reconciled({ good: { to: 'done' } });
    await settle();
    expect(h.job(good).state).toBe('done');
  });

  it("a protocol whose stored draft is corrupt has its change rejected; the other protocols' changes are sent", async () => {
    const store = memoryStore();
    const bad = store.protocols.createDraft(protocolRequest({ sourceId: 'bad' }));
    const good = store.protocols.createDraft(protocolRequest({ sourceId: 'good' }));
    store.db.prepare('UPDATE protocols SET draft = ? WHERE local_id = ?').run('{', bad.localId);
    const created: string[] = [];
    const client = {
      createProtocol: async (body: ProtocolRequest) => {
        created.push(body.customer.sourceId);
        return serverProtocol(`prt_${body.customer.sourceId}`, '2025-02-01T09:00:00Z', body);
      },
    };
    const timers = manualTimers(store.clock);
    const runner = new JobRunner({
      db: store.db,
      jobs: store.jobs,
      clock: store.clock,
      timers,
      kinds: [protocolJobs({ store, client: client as never, clock: store.clock })],
    });
    runner.start();
    await timers.advance(EDIT_SETTLE_MS);
    await runner.stop();
    expect(created).toEqual(['good']);
    expect(store.protocols.get(good.localId)).toMatchObject({ syncState: 'synced', change: null });
    expect(store.jobs.get(bad.change!.jobId)).toMatchObject({
      state: 'rejected',
      error: { kind: 'local', message: expect.stringMatching(/cannot be read/) },
    });
  });
});
