import { describe, expect, it } from 'vitest';
import { planImport } from '@main/csv/protocol-import';
import { PatientIdClash, suggestFreeId } from '@main/protocols/patient-identity';
import { listPatients, patientView } from '@main/patients/patient-queries';
import { listSharedIds } from '@main/patients/shared-ids';
import { ProtocolCommands } from '@main/protocols/protocol-commands';
import { testActivity } from '@test/support/activity';
import {
  appOrder,
  memoryStore,
  mirrorProtocol,
  protocolRequest,
  serverProtocol,
} from '@test/support/store-fixtures';

const maria = (overrides: Parameters<typeof protocolRequest>[0] = {}) =>
  protocolRequest({
    sourceId: 'PAT-1001',
    firstName: 'Maria',
    lastName: 'Gonzalez',
    address: { line1: '12 Oak St', line2: null, city: 'Portland', state: 'OR', zipCode: '97201' },
    ...overrides,
  });
const dupTest = (overrides: Parameters<typeof protocolRequest>[0] = {}) =>
  maria({
    firstName: 'Dup',
    lastName: 'Test',
    email: 'dup@example.com',
    address: { line1: '9 Elm St', line2: null, city: 'Salem', state: 'OR', zipCode: '97301' },
    ...overrides,
  });

function setup() {
  const store = memoryStore();
  const activity = testActivity(store);
  const commands = new ProtocolCommands({ store, activity, changed: () => {} });
  const entries = () => store.activity.page({}, 100, 0);
  return { store, commands, entries };
}

/** The clash a call threw, or a failure when it threw none. */
function clashOf(call: () => unknown): PatientIdClash['clash'] {
  try {
    call();
  } catch (error) {
    if (error instanceof PatientIdClash) return error.clash;
    throw error;
  }
  throw new Error('the call was not stopped');
}

describe('one person per Patient ID (main process rule)', () => {
  it('stops a new protocol whose ID names another person, writing nothing', () => {
    const { store, commands } = setup();
    commands.create(maria());
    const clash = clashOf(() => commands.create(dupTest()));
    expect(clash).toMatchObject({
      sourceId: 'PAT-1001',
      name: 'Dup Test',
      others: [{ name: 'Maria Gonzalez', protocols: 1, customer: { lastName: 'Gonzalez' } }],
      suggestedId: 'PAT-1002',
    });
    expect(store.protocols.count()).toBe(1);
  });

  it('takes case, surrounding and repeated spaces and accents as the same name', () => {
    const { store, commands } = setup();
    commands.create(maria({ firstName: 'María' }));
    commands.create(maria({ firstName: '  maria ', lastName: 'GONZALEZ  ' }));
    commands.create(maria({ sourceId: 'PAT-2000', firstName: 'Maria  Luisa' }));
    expect(() =>
      commands.create(maria({ sourceId: 'PAT-2000', firstName: 'maria luisa' })),
    ).not.toThrow();
    expect(store.protocols.count()).toBe(4);
    // A first name that is another word is another person.
    expect(clashOf(() => commands.create(maria({ firstName: 'Mario' }))).name).toBe(
      'Mario Gonzalez',
    );
  });

  it('"use the stored details" saves the stored person, changing no other protocol', () => {
    const { store, commands, entries } = setup();
    const first = commands.create(maria());
    const clash = clashOf(() => commands.create(dupTest()));
    const p = commands.create(dupTest(), { choice: 'use-stored', person: clash.others[0]!.key });
    expect(p.draft.customer).toMatchObject({
      sourceId: 'PAT-1001',
      firstName: 'Maria',
      lastName: 'Gonzalez',
      address: { line1: '12 Oak St' },
    });
    expect(store.protocols.get(first.localId)?.rev).toBe(first.rev);
    expect(entries()[0]).toMatchObject({
      action: 'protocol-created',
      detail: { patientIdChoice: 'use-stored' },
    });
  });

  it('"update everywhere" writes the new details on every protocol of the ID, each recorded and queued', () => {
    const { store, commands, entries } = setup();
    const a = commands.create(maria());
    const b = commands.create(maria({ phone: null }));
    const synced = mirrorProtocol(
      store,
      serverProtocol('prt_9', '2025-02-01T09:00:00Z', maria()),
    ).localId;
    const p = commands.create(dupTest(), { choice: 'update-everywhere' });
    for (const id of [a.localId, b.localId, synced]) {
      const after = store.protocols.get(id)!;
      expect(after.draft.customer).toMatchObject({ firstName: 'Dup', address: { city: 'Salem' } });
      expect(after.syncState).toBe('pending');
      expect(after.change).not.toBeNull();
    }
    const edits = entries().filter((e) => e.action === 'protocol-edited');
    expect(edits).toHaveLength(3);
    expect(edits[0]).toMatchObject({
      detail: {
        patientIdChoice: 'update-everywhere',
        keys: expect.arrayContaining(['customer.firstName']),
      },
    });
    expect(listPatients(store, { limit: 10, offset: 0 }).patients).toEqual([
      expect.objectContaining({ name: 'Dup Test', protocols: 4, sharedId: false }),
    ]);
    expect(p.draft.customer.firstName).toBe('Dup');
  });

  it('checks an edit only when it changes the Patient ID or the name', () => {
    const { commands } = setup();
    const a = commands.create(maria());
    const b = commands.create(dupTest({ sourceId: 'PAT-2000' }));
    // The same person's edit passes; moving Dup Test onto Maria's ID is stopped.
    expect(() => commands.update(a.localId, maria({ phone: null }))).not.toThrow();
    expect(clashOf(() => commands.update(b.localId, dupTest())).others[0]!.name).toBe(
      'Maria Gonzalez',
    );
    // The one protocol of an ID renamed is no clash: it names no one else.
    expect(() => commands.update(a.localId, dupTest())).not.toThrow();
  });

  it('stops a copy for another patient that keeps the ID', () => {
    const { store, commands } = setup();
    const a = commands.create(maria());
    const clash = clashOf(() => commands.duplicate(a.localId, dupTest().customer));
    expect(clash.others.map((o) => o.name)).toEqual(['Maria Gonzalez']);
    expect(store.protocols.count()).toBe(1);
    const copy = commands.duplicate(a.localId, dupTest({ sourceId: clash.suggestedId }).customer);
    expect(copy.sourceId).toBe('PAT-1002');
  });

  it('counts the names of orders when no protocol carries the ID', () => {
    const { store, commands } = setup();
    store.orders.upsertMany([appOrder('ord_1', { customer: maria().customer as never })], 'pulled');
    expect(clashOf(() => commands.create(dupTest())).others[0]).toMatchObject({
      name: 'Maria Gonzalez',
      protocols: 0,
      orders: 1,
    });
  });

  it("suggests the next number of the clinic's pattern, past every ID in use", () => {
    const { store, commands } = setup();
    commands.create(maria({ sourceId: 'PAT-0041' }));
    commands.create(maria({ sourceId: 'PAT-0042', firstName: 'Ana' }));
    expect(suggestFreeId(store.db, 'PAT-0001')).toBe('PAT-0043');
    expect(suggestFreeId(store.db, 'PAT-0041', new Set(['PAT-0043']))).toBe('PAT-0044');
    expect(suggestFreeId(store.db, 'smith')).toBe('smith-2');
  });

  it('never rewrites a protocol pulled from another desk: it is listed apart and flagged', () => {
    const { store, commands } = setup();
    commands.create(maria());
    const pulled = mirrorProtocol(
      store,
      serverProtocol('prt_1', '2025-02-01T09:00:00Z', dupTest()),
    ).localId;
    expect(store.protocols.get(pulled)?.draft.customer.firstName).toBe('Dup');
    const list = listPatients(store, { limit: 10, offset: 0 });
    expect(list.sharedIds).toBe(1);
    expect(list.patients.map((p) => [p.name, p.protocols, p.sharedId])).toEqual([
      ['Dup Test', 1, true],
      ['Maria Gonzalez', 1, true],
    ]);
    expect(listPatients(store, { search: 'Maria', limit: 10, offset: 0 }).patients).toEqual([
      expect.objectContaining({ name: 'Maria Gonzalez', sourceId: 'PAT-1001' }),
    ]);
    const mariaRow = list.patients[1]!;
    const view = patientView(store, 'PAT-1001', Date.now(), mariaRow.person!)!;
    expect(view.name).toBe('Maria Gonzalez');
    expect(view.protocols).toHaveLength(1);
    expect(view.otherNames).toEqual(['Dup Test']);
  });
});

describe('untangling a shared Patient ID', () => {
  function shared() {
    const s = setup();
    const a = s.commands.create(maria());
    const pulled = mirrorProtocol(
      s.store,
      serverProtocol('prt_1', '2025-02-01T09:00:00Z', dupTest()),
    ).localId;
    const [entry] = listSharedIds(s.store).ids;
    return { ...s, a, pulled, entry: entry! };
  }

  it('lists each shared ID with its people and their protocols', () => {
    const { entry, a, pulled } = shared();
    expect(entry).toMatchObject({ sourceId: 'PAT-1001', suggestedId: 'PAT-1002' });
    expect(entry.people.map((p) => [p.name, p.protocolList.map((x) => x.localId)])).toEqual(
      expect.arrayContaining([
        ['Maria Gonzalez', [a.localId]],
        ['Dup Test', [pulled]],
      ]),
    );
    expect(entry.people.find((p) => p.name === 'Dup Test')?.protocolList[0]?.fromServer).toBe(true);
  });

  it('the same person: every protocol takes the chosen details, each edit recorded and queued', () => {
    const { store, commands, entries, entry, pulled } = shared();
    const keep = entry.people.find((p) => p.name === 'Maria Gonzalez')!.key;
    expect(commands.keepOnePerson('PAT-1001', keep)).toBe(1);
    expect(store.protocols.get(pulled)).toMatchObject({
      customerName: 'Maria Gonzalez',
      syncState: 'pending',
    });
    expect(entries()[0]).toMatchObject({
      action: 'protocol-edited',
      subjects: { patients: ['PAT-1001'], protocols: [pulled], serverProtocols: ['prt_1'] },
      detail: { patientIdChoice: 'update-everywhere' },
    });
    expect(listSharedIds(store).total).toBe(0);
  });

  it("a new ID: only that person's protocols move, and a taken ID is refused", () => {
    const { store, commands, entries, entry, a, pulled } = shared();
    const dup = entry.people.find((p) => p.name === 'Dup Test')!.key;
    commands.create(maria({ sourceId: 'PAT-1005', firstName: 'Someone' }));
    expect(() => commands.moveToNewId('PAT-1001', dup, 'PAT-1005')).toThrow(PatientIdClash);
    expect(commands.moveToNewId('PAT-1001', dup, 'PAT-1006')).toBe(1);
    expect(store.protocols.get(pulled)?.sourceId).toBe('PAT-1006');
    expect(store.protocols.get(a.localId)?.sourceId).toBe('PAT-1001');
    expect(entries()[0]).toMatchObject({
      subjects: { patients: ['PAT-1001', 'PAT-1006'] },
      detail: { patientIdChoice: 'new-id', keys: ['customer.sourceId'] },
    });
    expect(listPatients(store, { limit: 10, offset: 0 }).sharedIds).toBe(0);
  });
});

describe('a CSV import with Patient IDs that name another person', () => {
  const HEAD =
    'Patient ID,First name,Last name,Address line 1,City,State,ZIP code,Days supply,Shipping method,Order type,Product 1 ID,Product 1 quantity';
  const line = (id: string, first: string, last: string, product = 1035) =>
    `${id},${first},${last},9 Elm St,Salem,OR,97301,30,STANDARD,ONE_TIME,${product},1`;
  const file = [
    HEAD,
    line('PAT-1001', 'Dup', 'Test'),
    line('PAT-1001', 'dup ', 'TEST', 1036),
    line('PAT-7', 'Ann', 'Lee'),
    line('PAT-7', 'Bob', 'Lee', 1036),
    line('PAT-1001', 'Maria', 'Gonzalez', 1037),
  ].join('\n');

  function planned() {
    const s = setup();
    s.commands.create(maria());
    return { ...s, plan: planImport(s.store, file) };
  }

  it('flags each such row in the preview, naming the other person and a free ID', () => {
    const { plan } = planned();
    expect(plan.preview.good.map((g) => [g.row, g.patientIdClash ?? null])).toEqual([
      [2, { otherName: 'Maria Gonzalez', otherRow: null, suggestedId: 'PAT-1002' }],
      [3, { otherName: 'Maria Gonzalez', otherRow: null, suggestedId: 'PAT-1002' }],
      [4, null],
      [5, { otherName: 'Ann Lee', otherRow: 4, suggestedId: 'PAT-1003' }],
      [6, null],
    ]);
  });

  it('imports each row as answered: the stored person, or the suggested ID', () => {
    const { store, commands, plan } = planned();
    const choices = [null, 'use-stored', null, 'use-stored', null] as const;
    const ids = commands.importMany(
      plan.requests.map((r, i) =>
        i === 0 ? { ...r, customer: { ...r.customer, sourceId: 'PAT-1002' } } : r,
      ),
      { patientIds: plan.preview.good.map((g, i) => ({ row: g.row, choice: choices[i]! })) },
    );
    const names = ids.map((id) => store.protocols.get(id)!.draft.customer);
    expect(names.map((c) => [c.sourceId, `${c.firstName} ${c.lastName}`])).toEqual([
      ['PAT-1002', 'Dup Test'],
      ['PAT-1001', 'Maria Gonzalez'],
      ['PAT-7', 'Ann Lee'],
      ['PAT-7', 'Ann Lee'],
      ['PAT-1001', 'Maria Gonzalez'],
    ]);
    expect(listSharedIds(store).total).toBe(0);
  });

  it('refuses the whole import when a row would still give an ID a second name', () => {
    const { store, commands, plan } = planned();
    expect(() =>
      commands.importMany(plan.requests, {
        patientIds: plan.preview.good.map((g) => ({ row: g.row, choice: null })),
      }),
    ).toThrow(/^Row 2: Patient ID PAT-1001 already belongs to Maria Gonzalez/);
    expect(store.protocols.count()).toBe(1);
  });
});
