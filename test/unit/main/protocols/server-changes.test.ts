import { describe, expect, it } from 'vitest';
import type { JobError } from '@main/jobs/job-model';
import { StoreError } from '@main/db';
import {
  memoryStore,
  mirrorProtocol,
  protocolRequest,
  serverProtocol,
} from '@test/support/store-fixtures';
import {
  claimChange,
  claimNext,
  inDoubt,
  liveJobs,
  pushed,
  refused,
  retried,
  type Store,
} from '@test/support/protocol-changes';

const T1 = '2025-02-01T09:00:00Z';
const T2 = '2025-02-02T09:00:00Z';

const synced = (store: Store, id = 'prt_1') =>
  mirrorProtocol(store, serverProtocol(id, T1)).localId;

const discontinued: JobError = {
  kind: 'validation',
  issues: [
    {
      loc: ['body', 'lineItems', 0, 'productId'],
      type: 'invalid',
      msg: 'product 1001 is DISCONTINUED',
    },
  ],
};

describe("what the server's answers do to a protocol", () => {
  it('a pushed create makes the protocol synced with the server id, copy and base', () => {
    const store = memoryStore();
    const p = store.protocols.createDraft(protocolRequest());
    const job = claimChange(store, p.localId);
    expect(job).toMatchObject({
      id: p.change!.jobId,
      state: 'sending',
      attempts: 1,
      data: { localId: p.localId, op: 'create', baseUpdatedAt: null, sentRev: p.rev },
    });
    expect(job.data.sent?.customer.lastName).toBe('Lovelace');
    expect(store.protocols.get(p.localId)?.change).toMatchObject({ state: 'sending' });

    expect(pushed(store, job, serverProtocol('prt_new', T1))).toBe('done');
    expect(store.protocols.get(p.localId)).toMatchObject({
      serverId: 'prt_new',
      baseUpdatedAt: T1,
      syncState: 'synced',
      change: null,
      conflict: null,
    });
    expect(store.protocols.get(p.localId)?.server?.id).toBe('prt_new');
    expect(store.jobs.get(job.id)).toMatchObject({ state: 'done', resultId: 'prt_new' });
    expect(liveJobs(store)).toEqual([]);
    // the same answer again (a reconciliation finding it too) is refused with the job's state
    expect(() => pushed(store, job, serverProtocol('prt_new', T1))).toThrow(
      expect.objectContaining({ code: 'invalid-state' }),
    );
    expect(liveJobs(store)).toEqual([]);
  });

  it('an edit made while the create was in flight is queued as an update based on the result', () => {
    const store = memoryStore();
    const p = store.protocols.createDraft(protocolRequest());
    const job = claimChange(store, p.localId);
    const edited = store.protocols.updateDraft(p.localId, protocolRequest({ lastName: 'Byron' }));
    expect(edited.change).toMatchObject({ jobId: job.id, state: 'sending', op: 'create' }); // untouched

    expect(pushed(store, job, serverProtocol('prt_new', T1))).toBe('queued');
    const after = store.protocols.get(p.localId)!;
    expect(after).toMatchObject({ serverId: 'prt_new', syncState: 'pending', baseUpdatedAt: T1 });
    expect(after.draft.customer.lastName).toBe('Byron');
    expect(after.change).toMatchObject({ op: 'update', state: 'queued', attempts: 0 });
    expect(after.change!.jobId).not.toBe(job.id);
    expect(store.jobs.get(after.change!.jobId)).toMatchObject({
      data: { op: 'update', baseUpdatedAt: T1 },
      nextAttemptAt: null, // the edit waited long enough already
    });
  });

  it('a delete made while the create was in flight follows it', () => {
    const store = memoryStore();
    const p = store.protocols.createDraft(protocolRequest());
    const job = claimChange(store, p.localId);
    expect(store.protocols.deleteDraft(p.localId)).toBe('deferred');
    expect(pushed(store, job, serverProtocol('prt_new', T1))).toBe('queued');
    expect(liveJobs(store)).toMatchObject([
      { localId: p.localId, op: 'delete', baseUpdatedAt: T1, state: 'queued' },
    ]);

    const del = claimChange(store, p.localId);
    expect(del.data.sent).toBeNull();
    expect(pushed(store, del, null)).toBe('dropped');
    expect(store.protocols.get(p.localId)).toBeNull();
    expect(store.db.prepare('SELECT COUNT(*) AS n FROM jobs').get()).toEqual({ n: 0 });
  });

  it('a create that surely did not happen, deleted meanwhile, is dropped entirely', () => {
    const store = memoryStore();
    const p = store.protocols.createDraft(protocolRequest());
    const job = claimChange(store, p.localId);
    store.protocols.deleteDraft(p.localId);
    retried(store, job, { kind: 'transport', message: 'connection refused' });
    expect(store.protocols.get(p.localId)).toBeNull();
    expect(store.db.prepare('SELECT COUNT(*) AS n FROM jobs').get()).toEqual({ n: 0 });
  });

  it('an update that surely did not happen is sent again as a delete when the protocol was deleted meanwhile', () => {
    const store = memoryStore();
    const localId = synced(store);
    store.protocols.updateDraft(localId, protocolRequest({ lastName: 'Mine' }));
    const job = claimChange(store, localId);
    store.protocols.deleteDraft(localId);
    retried(store, job, { kind: 'transport', message: '503' }, store.clock.now() + 5_000);
    expect(store.protocols.get(localId)?.change).toMatchObject({
      jobId: job.id,
      op: 'delete',
      state: 'queued',
    });
    expect(store.jobs.get(job.id)?.data).toMatchObject({ baseUpdatedAt: T1 });
  });

  it('retry with backoff: not claimed before it is due, then claimed as a second attempt', () => {
    const store = memoryStore();
    const p = store.protocols.createDraft(protocolRequest());
    const job = claimChange(store, p.localId);
    const due = store.clock.now() + 30_000;
    retried(store, job, { kind: 'transport', message: '503 Service Unavailable' }, due);
    expect(store.protocols.get(p.localId)?.change).toMatchObject({
      state: 'queued',
      attempts: 1,
      error: { kind: 'transport', message: '503 Service Unavailable' },
    });
    expect(claimNext(store, due - 1)).toBeNull();
    expect(claimNext(store, due)).toMatchObject({
      id: job.id,
      attempts: 2,
      sentAt: due,
    });
  });

  it('in doubt, and after a crash: a change in flight is in doubt, held until reconciliation settles it', () => {
    const store = memoryStore();
    const a = store.protocols.createDraft(protocolRequest({ sourceId: 'a' }));
    const b = store.protocols.createDraft(protocolRequest({ sourceId: 'b' }));
    const jobA = claimChange(store, a.localId);
    const jobB = claimChange(store, b.localId);
    inDoubt(store, jobB);
    expect(store.jobs.markOrphansInDoubt()).toBe(1); // the process died with a in flight
    expect(store.jobs.counts({ kind: 'protocol' })).toMatchObject({ in_doubt: 2, sending: 0 });
    expect(store.jobs.inDoubt('protocol', store.clock.now() + 60_000, 10).map((j) => j.id)).toEqual(
      [jobA.id, jobB.id],
    );
    // nothing is claimed again while in doubt, and no resolution applies
    expect(claimNext(store, store.clock.now() + 60_000)).toBeNull();
    store.protocols.updateDraft(a.localId, protocolRequest({ sourceId: 'a', lastName: 'Later' }));
    expect(store.protocols.get(a.localId)?.change).toMatchObject({
      jobId: jobA.id,
      state: 'in_doubt',
    });

    // reconciliation found a's create on the server; the edit made meanwhile follows
    expect(pushed(store, jobA, serverProtocol('prt_a', T1), 'in_doubt')).toBe('queued');
    expect(store.protocols.get(a.localId)?.change).toMatchObject({ op: 'update', state: 'queued' });
    expect(() => pushed(store, jobA, serverProtocol('prt_a', T1), 'in_doubt')).toThrow(
      expect.objectContaining({ code: 'invalid-state' }),
    );
  });

  it('a rejected change waits until the user edits the protocol', () => {
    const store = memoryStore();
    const p = store.protocols.createDraft(protocolRequest());
    const job = claimChange(store, p.localId);
    refused(store, job, discontinued);
    expect(store.protocols.get(p.localId)?.change).toMatchObject({
      jobId: job.id,
      state: 'rejected',
      error: discontinued,
    });
    expect(store.protocols.get(p.localId)?.syncState).toBe('pending');
    expect(claimNext(store, store.clock.now() + 600_000)).toBeNull();

    store.protocols.updateDraft(
      p.localId,
      protocolRequest(
        {},
        {
          lineItems: [
            {
              productId: 1002,
              quantity: 1,
              administration: { morning: 1, afternoon: 0, evening: 0, sleep: 0 },
            },
          ],
        },
      ),
    );
    expect(store.protocols.get(p.localId)?.change).toMatchObject({
      jobId: job.id,
      state: 'queued',
      error: null,
      op: 'create',
    });
  });

  it('a refusal of an older draft is sent again at once when the draft changed in flight', () => {
    const store = memoryStore();
    const p = store.protocols.createDraft(protocolRequest());
    const job = claimChange(store, p.localId);
    store.protocols.updateDraft(p.localId, protocolRequest({ lastName: 'Fixed' }));
    refused(store, job, discontinued);
    expect(store.jobs.get(job.id)).toMatchObject({ state: 'queued', nextAttemptAt: null });
    const again = claimChange(store, p.localId);
    expect(again).toMatchObject({ id: job.id, attempts: 2 });
    expect(again.data.sent?.customer.lastName).toBe('Fixed');
  });

  it('a create refused while the protocol was deleted is dropped: it never reached the server', () => {
    const store = memoryStore();
    const p = store.protocols.createDraft(protocolRequest());
    const job = claimChange(store, p.localId);
    expect(store.protocols.deleteDraft(p.localId)).toBe('deferred');
    refused(store, job, discontinued);
    expect(store.protocols.get(p.localId)).toBeNull();
    expect(store.db.prepare('SELECT COUNT(*) AS n FROM jobs').get()).toEqual({ n: 0 });
  });

  it('an update refused while the protocol was deleted: the delete follows', () => {
    const store = memoryStore();
    const localId = synced(store);
    store.protocols.updateDraft(localId, protocolRequest({ lastName: 'Mine' }));
    const job = claimChange(store, localId);
    store.protocols.deleteDraft(localId);
    refused(store, job, { kind: 'detail', status: 400, detail: 'Bad request' });
    expect(store.protocols.get(localId)?.change).toMatchObject({
      jobId: job.id,
      op: 'delete',
      state: 'queued',
    });
  });

  it('a refused delete waits for the user', () => {
    const store = memoryStore();
    const localId = synced(store);
    store.protocols.deleteDraft(localId);
    const job = claimChange(store, localId);
    refused(store, job, { kind: 'detail', status: 409, detail: 'Has open orders' });
    expect(store.protocols.get(localId)?.change).toMatchObject({ op: 'delete', state: 'rejected' });
  });
});

describe('the mirror pull against a change in flight', () => {
  it('refreshes only the server copy: the draft and its base stay, for the push to compare', () => {
    const store = memoryStore();
    const localId = synced(store);
    store.protocols.updateDraft(localId, protocolRequest({ lastName: 'Mine' }));
    const job = claimChange(store, localId);
    const theirs = serverProtocol('prt_1', T2, protocolRequest({ lastName: 'Theirs' }));
    expect(mirrorProtocol(store, theirs).change).toBe('server-updated');
    expect(store.protocols.get(localId)).toMatchObject({
      baseUpdatedAt: T1,
      syncState: 'pending',
      change: { jobId: job.id, state: 'sending' },
    });
    expect(store.protocols.get(localId)?.draft.customer.lastName).toBe('Mine');
    expect(store.protocols.get(localId)?.server?.updatedAt).toBe(T2);
  });

  it('leaves a protocol the server no longer has to the outcome of its change in flight or in doubt', () => {
    const store = memoryStore();
    const localId = synced(store);
    store.protocols.updateDraft(localId, protocolRequest({ lastName: 'Mine' }));
    const job = claimChange(store, localId);
    expect(store.protocols.markDeletedOnServer('prt_1')).toBe('in-flight');
    inDoubt(store, job);
    expect(store.protocols.markDeletedOnServer('prt_1')).toBe('in-flight');
    expect(store.protocols.get(localId)).toMatchObject({
      syncState: 'pending',
      conflict: null,
      change: { state: 'in_doubt' },
    });
  });

  it('a protocol the pull mirrored while its create was in flight is not left as a duplicate', () => {
    const store = memoryStore();
    const p = store.protocols.createDraft(protocolRequest());
    const job = claimChange(store, p.localId);
    const created = serverProtocol('prt_new', T1);
    mirrorProtocol(store, created); // the pull saw it first
    expect(store.protocols.count()).toBe(2);
    expect(pushed(store, job, created)).toBe('done');
    expect(store.protocols.count()).toBe(1);
    expect(store.protocols.getByServerId('prt_new')?.localId).toBe(p.localId);
  });

  it('a mirror row with local changes of its own is not dropped: the answer is refused', () => {
    const store = memoryStore();
    const p = store.protocols.createDraft(protocolRequest());
    const job = claimChange(store, p.localId);
    const created = serverProtocol('prt_new', T1);
    const mirror = mirrorProtocol(store, created).localId;
    store.protocols.updateDraft(mirror, protocolRequest({ lastName: 'Edited' }));
    expect(() => pushed(store, job, created)).toThrow(StoreError);
    // rolled back as a whole: the job is still in flight
    expect(store.jobs.get(job.id)?.state).toBe('sending');
    expect(store.protocols.count()).toBe(2);
  });
});
