import { describe, expect, it } from 'vitest';
import { CorruptRowError, StoreError } from '@main/db';
import { ProtocolColumn } from '@shared/protocol-views';
import type { UndoOutcome } from '@shared/undo-views';
import { ProtocolCommands } from '@main/protocols/protocol-commands';
import { parseChange } from '@main/protocols/change-queue';
import { protocolJobs } from '@main/protocols/protocol-job';
import { personKey } from '@main/protocols/patient-identity';
import { testActivity } from '@test/support/activity';
import { listView as view } from '@test/support/component/protocol-fixtures';
import {
  claimChange,
  claimNext,
  conflicted as conflictedPush,
  pushed,
  refused,
} from '@test/support/protocol-changes';
import {
  memoryStore,
  mirrorProtocol,
  protocolRequest,
  serverProtocol,
} from '@test/support/store-fixtures';

function setup() {
  const store = memoryStore();
  const activity = testActivity(store);
  let told = 0;
  const commands = new ProtocolCommands({ store, activity, changed: () => (told += 1) });
  const entries = () => store.activity.page({}, 100, 0);
  return { store, commands, entries, told: () => told };
}

/** The jobs of one protocol, newest last, as the change queue holds them. */
const jobsOf = (store: ReturnType<typeof memoryStore>, localId: string) =>
  store.db
    .prepare(
      `SELECT state, json_extract(data, '$.op') AS op FROM jobs
       WHERE queue_key = 'protocol:' || ? ORDER BY id`,
    )
    .all(localId) as { state: string; op: string }[];

describe('undo and redo of protocol commands (main/protocols/undo.ts)', () => {
  it('undoes an edit not sent yet into its pending create, and redoes it', () => {
    const { store, commands, entries, told } = setup();
    const p = commands.create(protocolRequest());
    commands.update(p.localId, protocolRequest({}, { daysSupply: 90 }));
    expect(commands.undoState()).toEqual({
      undo: { seq: 2, kind: 'edit', label: 'Edit of the protocol for Ada Lovelace' },
      redo: null,
    });
    const before = told();
    const undone = commands.undo();
    expect(told()).toBe(before + 1);
    expect(undone).toEqual({
      step: { seq: 2, kind: 'edit', label: 'Edit of the protocol for Ada Lovelace' },
      localIds: [p.localId],
    });
    expect(store.protocols.get(p.localId)?.draft.daysSupply).toBe(30);
    // One pending change still: the create, with the draft as it was.
    expect(jobsOf(store, p.localId)).toEqual([{ state: 'queued', op: 'create' }]);
    expect(commands.undoState().redo).toMatchObject({ kind: 'edit' });
    commands.redo();
    expect(store.protocols.get(p.localId)?.draft.daysSupply).toBe(90);
    const [last, previous] = entries();
    expect(last).toMatchObject({
      action: 'redo',
      subjects: { protocols: [p.localId], patients: ['patient-0001'] },
      detail: { step: 'edit', count: 1 },
    });
    expect(previous).toMatchObject({ action: 'undo', detail: { step: 'edit' } });
  });

  it('undoes an edit of a synced protocol with an update, sent as any change', () => {
    const { store, commands } = setup();
    const { localId } = mirrorProtocol(
      store,
      serverProtocol('prot_1', '2025-03-01T09:00:00.000Z', protocolRequest()),
    );
    expect(jobsOf(store, localId)).toEqual([]);
    commands.update(localId, protocolRequest({}, { daysSupply: 60 }));
    commands.undo();
    expect(store.protocols.get(localId)).toMatchObject({
      draft: { daysSupply: 30 },
      syncState: 'pending',
      change: { op: 'update', state: 'queued' },
    });
  });

  it('takes back a delete not sent, and makes a protocol again whose delete left nothing', () => {
    const { store, commands } = setup();
    const { localId } = mirrorProtocol(
      store,
      serverProtocol('prot_1', '2025-03-01T09:00:00.000Z', protocolRequest()),
    );
    expect(commands.delete(localId)).toBe('queued');
    expect(commands.undoState().undo?.label).toBe('Delete of the protocol for Ada Lovelace');
    commands.undo();
    expect(store.protocols.get(localId)).toMatchObject({
      deleted: false,
      serverId: 'prot_1',
      change: { op: 'update', state: 'queued' },
    });

    // Never sent: the delete drops it whole; undo drafts it again as a new create.
    const local = commands.create(protocolRequest({ sourceId: 'patient-0002', firstName: 'Bo' }));
    expect(commands.delete(local.localId)).toBe('dropped');
    expect(store.protocols.get(local.localId)).toBeNull();
    const back = commands.undo();
    const again = back.localIds[0]!;
    expect(again).not.toBe(local.localId);
    expect(store.protocols.get(again)).toMatchObject({
      customerName: 'Bo Lovelace',
      change: { op: 'create' },
    });
    // Redo deletes the protocol made again, by its new id.
    commands.redo();
    expect(store.protocols.get(again)).toBeNull();
  });

  it('undoes an import in one step, and a copy for another patient', () => {
    const { store, commands } = setup();
    const ids = commands.importMany([
      protocolRequest({ sourceId: 'imp-1' }),
      protocolRequest({ sourceId: 'imp-2' }),
      protocolRequest({ sourceId: 'imp-3' }),
    ]);
    expect(commands.undoState().undo).toMatchObject({
      kind: 'import',
      label: 'Import of 3 protocols',
    });
    const copy = commands.duplicate(ids[0]!, protocolRequest({ sourceId: 'imp-4' }).customer);
    expect(commands.undo().step.kind).toBe('duplicate');
    expect(store.protocols.get(copy.localId)).toBeNull();
    commands.undo();
    expect(store.protocols.count()).toBe(0);
    const redone = commands.redo();
    expect(redone.localIds).toHaveLength(3);
    expect(store.protocols.count()).toBe(3);
  });

  it('undoes a create whose protocol is already gone without failing', () => {
    const { store, commands } = setup();
    const p = commands.create(protocolRequest());
    // Gone by another way than a person's command (the server deleted it, theirs was taken).
    store.protocols.forget(p.localId);
    expect(commands.undo()).toMatchObject({ step: { kind: 'create' }, localIds: [p.localId] });
    expect(store.protocols.count()).toBe(0);
  });

  it('keeps no step for a save that changed nothing; a new change drops what could be redone', () => {
    const { commands } = setup();
    const p = commands.create(protocolRequest());
    commands.update(p.localId, protocolRequest());
    expect(commands.undoState().undo).toMatchObject({ kind: 'create' });
    commands.update(p.localId, protocolRequest({}, { daysSupply: 60 }));
    commands.undo();
    expect(commands.undoState().redo).not.toBeNull();
    commands.update(p.localId, protocolRequest({}, { daysSupply: 90 }));
    expect(commands.undoState().redo).toBeNull();
    expect(() => commands.redo()).toThrow(StoreError);
  });

  it("undoes only the step a toast's Undo means, never a newer one", () => {
    const { store, commands } = setup();
    const p = commands.create(protocolRequest());
    commands.update(p.localId, protocolRequest({}, { daysSupply: 60 }));
    expect(() => commands.undo({ kind: 'create', localId: p.localId })).toThrow(
      /Something newer was changed since \("Edit of the protocol for Ada Lovelace"\)/,
    );
    expect(() => commands.undo({ kind: 'edit', localId: 'another' })).toThrow(StoreError);
    expect(store.protocols.get(p.localId)?.draft.daysSupply).toBe(60);
    const undone = commands.undo({ kind: 'edit', localId: p.localId });
    expect(() => commands.redo({ seq: undone.step.seq + 1 })).toThrow(/no longer be redone/);
    commands.redo({ seq: undone.step.seq });
    expect(store.protocols.get(p.localId)?.draft.daysSupply).toBe(60);
  });

  it('keeps the last 50 steps, and says when nothing is left to undo', () => {
    const { store, commands } = setup();
    const p = commands.create(protocolRequest());
    for (let i = 0; i < 55; i++)
      commands.update(p.localId, protocolRequest({ firstName: `Ada${i}` }));
    expect(store.undo.count()).toBe(50);
    for (let i = 0; i < 50; i++) commands.undo();
    expect(store.protocols.get(p.localId)?.draft.customer.firstName).toBe('Ada4');
    expect(commands.undoState().undo).toBeNull();
    expect(() => commands.undo()).toThrow(/Nothing to undo/);
  });

  it('refuses to take back a delete that is being sent, changing nothing', () => {
    const { store, commands } = setup();
    const { localId } = mirrorProtocol(
      store,
      serverProtocol('prot_1', '2025-03-01T09:00:00.000Z', protocolRequest()),
    );
    commands.delete(localId);
    store.db
      .prepare("UPDATE jobs SET state = 'sending' WHERE queue_key = 'protocol:' || ?")
      .run(localId);
    expect(() => commands.undo()).toThrow(/being sent/);
    expect(store.protocols.get(localId)?.deleted).toBe(true);
    expect(commands.undoState().undo).toMatchObject({ kind: 'delete' });
  });

  it('undoes a conflict resolution: theirs taken, or both kept', () => {
    const { store, commands } = setup();
    const conflicted = (id: string) => {
      const { localId } = mirrorProtocol(
        store,
        serverProtocol(id, '2025-03-01T09:00:00.000Z', protocolRequest({ sourceId: id })),
      );
      commands.update(localId, protocolRequest({ sourceId: id, lastName: 'Mine' }));
      const job = claimChange(store, localId);
      conflictedPush(
        store,
        job,
        'edited-on-server',
        serverProtocol(
          id,
          '2025-03-01T10:00:00.000Z',
          protocolRequest({ sourceId: id, lastName: 'Theirs' }),
        ),
      );
      return localId;
    };
    const [a, b] = [conflicted('prt_a'), conflicted('prt_b')];
    commands.resolveConflict(a, 'take-theirs');
    expect(store.protocols.get(a)?.draft.customer.lastName).toBe('Theirs');
    expect(commands.undoState().undo).toMatchObject({
      kind: 'resolve',
      label: 'Conflict resolution for Ada Theirs',
    });
    commands.undo({ kind: 'resolve', localId: a });
    // Mine again, as a new change on the server's version: sent like any other.
    expect(store.protocols.get(a)).toMatchObject({
      syncState: 'pending',
      conflict: null,
      draft: { customer: { lastName: 'Mine' } },
      change: { op: 'update', state: 'queued' },
    });

    const { copyLocalId } = commands.resolveConflict(b, 'keep-both');
    commands.undo();
    expect(store.protocols.get(copyLocalId!)).toBeNull();
    expect(store.protocols.get(b)?.draft.customer.lastName).toBe('Mine');
  });

  it('undoes the untangling of a Patient ID', () => {
    const { store, commands } = setup();
    const a = commands.create(protocolRequest({ sourceId: 'PAT-1', firstName: 'Maria' }));
    store.protocols.createDraft(protocolRequest({ sourceId: 'PAT-1', firstName: 'Mara' }));
    const moved = commands.moveToNewId('PAT-1', personKey(a.draft.customer), 'PAT-2');
    expect(moved).toBe(1);
    expect(store.protocols.get(a.localId)?.sourceId).toBe('PAT-2');
    expect(commands.undo().step.kind).toBe('untangle');
    expect(store.protocols.get(a.localId)?.sourceId).toBe('PAT-1');
  });
});

describe('undo and redo of keep mine in a conflict', () => {
  const BASE = '2025-03-01T09:00:00.000Z';
  const THEIRS_AT = '2025-03-01T10:00:00.000Z';
  const request = (lastName: string, overrides: Partial<ReturnType<typeof protocolRequest>> = {}) =>
    protocolRequest({ sourceId: 'PAT-K', lastName }, overrides);

  /** Synced, edited here ("Mine"), and the push finds the server edited ("Theirs", 60 days). */
  function editedOnServer(store: ReturnType<typeof memoryStore>, commands: ProtocolCommands) {
    const { localId } = mirrorProtocol(store, serverProtocol('prot_k', BASE, request('Lovelace')));
    commands.update(localId, request('Mine'));
    conflictedPush(
      store,
      claimChange(store, localId),
      'edited-on-server',
      serverProtocol('prot_k', THEIRS_AT, request('Theirs', { daysSupply: 60 })),
    );
    return localId;
  }

  it('is a step from theirs to mine: undo queues an update with theirs, redo mine again', () => {
    const { store, commands, entries } = setup();
    const localId = editedOnServer(store, commands);
    const before = commands.undoState().undo;
    commands.resolveConflict(localId, 'keep-mine');
    expect(commands.undoState().undo).toEqual({
      seq: before!.seq + 1,
      kind: 'resolve',
      label: 'Conflict resolution for Ada Mine',
    });
    expect(store.protocols.get(localId)).toMatchObject({
      conflict: null,
      change: { op: 'update', state: 'queued' },
    });

    // Not sent yet: undo turns the pending update into theirs, on the server's version.
    expect(commands.undo({ kind: 'resolve', localId })).toMatchObject({ localIds: [localId] });
    expect(store.protocols.get(localId)).toMatchObject({
      syncState: 'pending',
      conflict: null,
      draft: { daysSupply: 60, customer: { lastName: 'Theirs' } },
    });
    expect(jobsOf(store, localId).filter((j) => j.state !== 'done')).toEqual([
      { state: 'queued', op: 'update' },
    ]);
    const job = claimChange(store, localId);
    expect(job.data).toMatchObject({
      op: 'update',
      baseUpdatedAt: THEIRS_AT,
      sent: { daysSupply: 60, customer: { lastName: 'Theirs' } },
    });
    expect(entries()[0]).toMatchObject({ action: 'undo', detail: { step: 'resolve', count: 1 } });

    // Theirs reached the server; redo brings mine again, as a new update on that version.
    const sentAt = '2025-03-01T11:00:00.000Z';
    pushed(store, job, serverProtocol('prot_k', sentAt, request('Theirs', { daysSupply: 60 })));
    commands.redo();
    expect(store.protocols.get(localId)).toMatchObject({
      draft: { daysSupply: 30, customer: { lastName: 'Mine' } },
      change: { op: 'update', state: 'queued' },
    });
    expect(claimChange(store, localId).data).toMatchObject({
      baseUpdatedAt: sentAt,
      sent: { daysSupply: 30, customer: { lastName: 'Mine' } },
    });
  });

  it('undoes a keep mine already on the server with a new update that sends theirs', () => {
    const { store, commands } = setup();
    const localId = editedOnServer(store, commands);
    commands.resolveConflict(localId, 'keep-mine');
    const mineAt = '2025-03-01T11:00:00.000Z';
    pushed(store, claimChange(store, localId), serverProtocol('prot_k', mineAt, request('Mine')));
    expect(store.protocols.get(localId)).toMatchObject({ syncState: 'synced', change: null });

    commands.undo();
    expect(store.protocols.get(localId)).toMatchObject({
      draft: { customer: { lastName: 'Theirs' } },
      change: { op: 'update', state: 'queued' },
    });
    expect(claimChange(store, localId).data).toMatchObject({
      op: 'update',
      baseUpdatedAt: mineAt,
      sent: { daysSupply: 60, customer: { lastName: 'Theirs' } },
    });
  });

  it('undoes keep my delete, once sent, by making theirs again as a new create', () => {
    const { store, commands } = setup();
    const { localId } = mirrorProtocol(store, serverProtocol('prot_k', BASE, request('Lovelace')));
    commands.delete(localId);
    conflictedPush(
      store,
      claimChange(store, localId),
      'deleted-locally-edited-on-server',
      serverProtocol('prot_k', THEIRS_AT, request('Theirs')),
    );
    commands.resolveConflict(localId, 'keep-mine');
    expect(commands.undoState().undo).toMatchObject({
      kind: 'resolve',
      label: 'Conflict resolution for Ada Theirs',
    });
    pushed(store, claimChange(store, localId), null);
    expect(store.protocols.get(localId)).toBeNull();

    const [again] = commands.undo().localIds;
    expect(again).not.toBe(localId);
    expect(store.protocols.get(again!)).toMatchObject({
      serverId: null,
      draft: { customer: { lastName: 'Theirs' } },
      change: { op: 'create', state: 'queued' },
    });
    // Redo is the delete again: never sent, the protocol made anew simply goes.
    commands.redo();
    expect(store.protocols.get(again!)).toBeNull();
  });

  it('undoes keep mine after a server delete by deleting mine, as the server did', () => {
    const { store, commands } = setup();
    const { localId } = mirrorProtocol(store, serverProtocol('prot_k', BASE, request('Lovelace')));
    commands.update(localId, request('Mine'));
    expect(store.protocols.markDeletedOnServer('prot_k')).toBe('conflict');
    commands.resolveConflict(localId, 'keep-mine');
    expect(store.protocols.get(localId)).toMatchObject({
      serverId: null,
      change: { op: 'create' },
    });
    commands.undo({ kind: 'resolve', localId });
    // Its create never sent: it goes whole, nothing reaches the server.
    expect(store.protocols.get(localId)).toBeNull();
    const [again] = commands.redo().localIds;
    expect(store.protocols.get(again!)).toMatchObject({
      draft: { customer: { lastName: 'Mine' } },
      change: { op: 'create' },
    });
  });

  it('is no step when mine and theirs are alike, and says so to the screen', () => {
    const { store, commands } = setup();
    const { localId } = mirrorProtocol(store, serverProtocol('prot_k', BASE, request('Lovelace')));
    commands.update(localId, request('Same'));
    conflictedPush(
      store,
      claimChange(store, localId),
      'edited-on-server',
      serverProtocol('prot_k', THEIRS_AT, request('Same')),
    );
    const stepsBefore = store.undo.count();
    expect(commands.resolveConflict(localId, 'keep-mine').undoable).toBe(false);
    expect(store.undo.count()).toBe(stepsBefore);
  });
});

describe('undo of a protocol pulled with an incomplete draft', () => {
  /** On the server with no shipping method: the draft pulled lacks one (draftFromProtocol). */
  function pulledIncomplete(store: ReturnType<typeof memoryStore>) {
    const request = protocolRequest({ sourceId: 'PAT-INC', lastName: 'Incomplete' });
    const { localId } = mirrorProtocol(store, {
      ...serverProtocol('prot_inc', '2025-03-01T09:00:00.000Z', request),
      shippingMethod: null,
    });
    expect(store.protocols.get(localId)?.draft.shippingMethod).toBeNull();
    return localId;
  }

  /**
   * What the job runner does when it takes the next change: the protocol kind prepares it, and
   * an outcome it settles there (an incomplete draft: refused here) is written as the runner does.
   */
  const sendNext = (store: ReturnType<typeof memoryStore>) => {
    const kind = protocolJobs({ store, client: {} as never, clock: store.clock });
    const claimed = claimNext(store);
    if (!claimed) throw new Error('no change to send');
    const job = parseChange(claimed);
    const prepared = kind.prepare!(job);
    if ('outcome' in prepared && prepared.outcome.to === 'rejected')
      refused(store, job, prepared.outcome.error);
    return prepared;
  };

  it('makes it anew, as it was, after its delete was sent; the create waits refused', () => {
    const { store, commands } = setup();
    const localId = pulledIncomplete(store);
    commands.delete(localId);
    pushed(store, claimChange(store, localId), null);
    expect(store.protocols.get(localId)).toBeNull();

    const [again] = commands.undo().localIds;
    expect(again).not.toBe(localId);
    const back = store.protocols.get(again!);
    expect(back).toMatchObject({
      serverId: null,
      customerName: 'Ada Incomplete',
      change: { op: 'create', state: 'queued' },
    });
    expect(back?.draft.shippingMethod).toBeNull();
    // The server could not take it: the change is refused here, as any incomplete protocol's,
    // and the protocol stays for the person to complete.
    const incomplete = { kind: 'local', message: 'The protocol is incomplete: shippingMethod.' };
    expect(sendNext(store)).toEqual({ outcome: { to: 'rejected', error: incomplete } });
    expect(store.protocols.get(again!)).toMatchObject({
      syncState: 'pending',
      change: { op: 'create', state: 'rejected', error: incomplete },
    });
    commands.redo();
    expect(store.protocols.get(again!)).toBeNull();
  });

  it('puts the incomplete draft back over an edit that completed it', () => {
    const { store, commands } = setup();
    const localId = pulledIncomplete(store);
    commands.update(
      localId,
      protocolRequest(
        { sourceId: 'PAT-INC', lastName: 'Incomplete' },
        { shippingMethod: 'EXPRESS' },
      ),
    );
    commands.undo();
    expect(store.protocols.get(localId)).toMatchObject({
      draft: { shippingMethod: null },
      change: { op: 'update', state: 'queued' },
    });
  });
});

const ALL: ProtocolColumn[] = [...ProtocolColumn.options];
const NO_SUPPLY = ALL.filter((c) => c !== 'supply');

describe("undo and redo of the protocol list's columns and filters (steps of the same history)", () => {
  it('notes a columns step with its setting write, and gives the columns back on undo and redo', () => {
    const { commands, entries } = setup();
    // The setting as Core keeps it: written by the note's `write` and by the undo's `inside`.
    let setting = ALL;
    const step = commands.noteListStep({ columns: { before: ALL, after: NO_SUPPLY } }, () => {
      setting = NO_SUPPLY;
    });
    expect(step).toEqual({ seq: 1, kind: 'columns', label: 'Columns of the protocol list' });
    expect(setting).toEqual(NO_SUPPLY);
    const show = (o: UndoOutcome) => {
      setting = o.columns!;
    };
    const undone = commands.undo({}, show);
    expect(undone).toEqual({
      step: { seq: 1, kind: 'columns', label: 'Columns of the protocol list' },
      localIds: [],
      columns: ALL,
    });
    expect(setting).toEqual(ALL);
    expect(commands.redo({}, show).columns).toEqual(NO_SUPPLY);
    expect(setting).toEqual(NO_SUPPLY);
    // Each is in the activity record, naming no patient, protocol or order.
    const [redo, undo] = entries();
    for (const [entry, action] of [
      [redo, 'redo'],
      [undo, 'undo'],
    ] as const) {
      expect(entry).toMatchObject({ action, detail: { step: 'columns', count: 1 } });
      expect(entry!.subjects.patients ?? []).toEqual([]);
      expect(entry!.subjects.protocols ?? []).toEqual([]);
      expect(entry!.subjects.orders ?? []).toEqual([]);
    }
  });

  it('notes no step when the columns or filters did not change', () => {
    const { commands } = setup();
    let written = 0;
    expect(
      commands.noteListStep({ columns: { before: ALL, after: ALL } }, () => (written += 1)),
    ).toBeNull();
    expect(commands.noteListStep({ view: { before: view(), after: view() } })).toBeNull();
    expect(written).toBe(1);
    expect(commands.undoState()).toEqual({ undo: null, redo: null });
  });

  it('a setting write that fails leaves no step, and an undo whose write fails stays undone-not', () => {
    const { commands } = setup();
    expect(() =>
      commands.noteListStep({ columns: { before: ALL, after: NO_SUPPLY } }, () => {
        throw new Error('disk full');
      }),
    ).toThrow('disk full');
    expect(commands.undoState().undo).toBeNull();
    commands.noteListStep({ columns: { before: ALL, after: NO_SUPPLY } });
    expect(() =>
      commands.undo({}, () => {
        throw new Error('disk full');
      }),
    ).toThrow('disk full');
    expect(commands.undoState()).toMatchObject({ undo: { kind: 'columns' }, redo: null });
  });

  it('notes a view step; undo gives the filters before, redo those after', () => {
    const { commands, entries } = setup();
    const before = view();
    const after = view({ syncStates: ['pending'], due: 'within-7' });
    expect(commands.noteListStep({ view: { before, after } })).toMatchObject({
      kind: 'view',
      label: 'Filters of the protocol list',
    });
    const undone = commands.undo();
    expect(undone).toMatchObject({ step: { kind: 'view' }, localIds: [], view: before });
    expect(undone.columns).toBeUndefined();
    expect(commands.redo().view).toEqual(after);
    expect(entries()[0]).toMatchObject({ action: 'redo', detail: { step: 'view', count: 1 } });
    // The sort alone, and both, are named so.
    commands.noteListStep({ view: { before: after, after: { ...after, sort: 'name' } } });
    expect(commands.undoState().undo?.label).toBe('Sort of the protocol list');
    commands.noteListStep({
      view: { before: after, after: view({ productId: 1001, direction: 'asc' }) },
    });
    expect(commands.undoState().undo?.label).toBe('Filters and sort of the protocol list');
  });

  it('undoes protocol changes and list changes in the order they were made', () => {
    const { store, commands } = setup();
    const p = commands.create(protocolRequest());
    commands.noteListStep({ view: { before: view(), after: view({ due: 'ran-out' }) } });
    commands.update(p.localId, protocolRequest({}, { daysSupply: 90 }));
    commands.noteListStep({ columns: { before: ALL, after: NO_SUPPLY } });
    expect(commands.undo().step.kind).toBe('columns');
    expect(commands.undo().step.kind).toBe('edit');
    expect(store.protocols.get(p.localId)?.draft.daysSupply).toBe(30);
    expect(commands.undo().view).toEqual(view());
    expect(commands.undo().step.kind).toBe('create');
    expect(commands.redo().step.kind).toBe('create');
    expect(commands.redo().view).toEqual(view({ due: 'ran-out' }));
  });

  it('a protocol change after an undone view step drops it: nothing to redo', () => {
    const { commands } = setup();
    const p = commands.create(protocolRequest());
    commands.noteListStep({ view: { before: view(), after: view({ syncStates: ['conflict'] }) } });
    commands.undo();
    expect(commands.undoState().redo).toMatchObject({ kind: 'view' });
    commands.update(p.localId, protocolRequest({}, { daysSupply: 60 }));
    expect(commands.undoState()).toMatchObject({ undo: { kind: 'edit' }, redo: null });
    expect(() => commands.redo()).toThrow(/Nothing to redo/);
    // And a view step after an undone edit drops the edit the same way.
    commands.undo();
    commands.noteListStep({ view: { before: view(), after: view({ sort: 'name' }) } });
    expect(commands.undoState().redo).toBeNull();
  });

  it('keeps 50 steps in all, view and columns steps counted with the others', () => {
    const { store, commands } = setup();
    const p = commands.create(protocolRequest());
    for (let i = 0; i < 30; i++)
      commands.update(p.localId, protocolRequest({ firstName: `Ada${i}` }));
    for (let i = 0; i < 30; i++)
      commands.noteListStep({
        view: { before: view({ productId: i + 1 }), after: view({ productId: i + 2 }) },
      });
    expect(store.undo.count()).toBe(50);
    for (let i = 0; i < 30; i++) expect(commands.undo().step.kind).toBe('view');
    // The 20 newest edits are left: the create and the 10 oldest edits went.
    for (let i = 0; i < 20; i++) expect(commands.undo().step.kind).toBe('edit');
    expect(store.protocols.get(p.localId)?.draft.customer.firstName).toBe('Ada9');
    expect(() => commands.undo()).toThrow(/Nothing to undo/);
  });

  it('still reads a step stored before list steps existed ({changes} as migration 17 wrote it)', () => {
    const { store, commands } = setup();
    const p = store.protocols.createDraft(protocolRequest({}, { daysSupply: 90 }));
    const before = { ...p.draft, daysSupply: 30 };
    store.db
      .prepare(
        "INSERT INTO undo_steps (kind, label, payload, undone, at) VALUES ('edit', ?, ?, 0, 1)",
      )
      .run(
        'Edit of the protocol for Ada Lovelace',
        JSON.stringify({ changes: [{ localId: p.localId, before, after: p.draft }] }),
      );
    expect(commands.undo()).toMatchObject({ step: { kind: 'edit' }, localIds: [p.localId] });
    expect(store.protocols.get(p.localId)?.draft.daysSupply).toBe(30);
  });

  it('refuses a list step whose payload cannot be read, naming the row', () => {
    const { store, commands } = setup();
    store.db
      .prepare(
        "INSERT INTO undo_steps (kind, label, payload, undone, at) VALUES ('view', 'x', ?, 0, 1)",
      )
      .run(JSON.stringify({ view: { before: view(), after: { ...view(), sort: 'age' } } }));
    expect(() => commands.undo()).toThrow(CorruptRowError);
    expect(() => commands.undo()).toThrow(/undo_steps/);
  });
});
