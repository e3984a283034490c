import { describe, expect, it } from 'vitest';
import { writeCsv } from '@main/csv-text';
import { headerRow } from '@main/csv/csv-columns';
import { planImport } from '@main/csv/protocol-import';
import { ProtocolRequest } from '@shared/api';
import { IPC_CALLS } from '@shared/ipc';
import { ProtocolInput } from '@shared/protocol-input';
import { US_STATES, UsStateCode, stateCodeOf, stateName } from '@shared/us-states';
import { CustomerForm } from '@renderer/screens/editor/editor-form';
import { memoryStore, product, protocolRequest } from '@test/support/store-fixtures';

const inState = (state: string) =>
  protocolRequest({
    address: { line1: '1 Main St', line2: null, city: 'Austin', state, zipCode: '73301' },
  });

describe('US states: one list', () => {
  it('holds the 50 states, DC and the five inhabited territories, each code once', () => {
    expect(US_STATES).toHaveLength(56);
    expect(new Set(US_STATES.map((s) => s.code)).size).toBe(56);
    for (const code of ['TX', 'OR', 'DC', 'PR', 'GU', 'VI', 'AS', 'MP'])
      expect(UsStateCode.safeParse(code).success, code).toBe(true);
    expect(stateName('TX')).toBe('Texas');
  });

  it('refuses any other two letters, and the codes of no US state', () => {
    for (const code of ['TE', 'XX', 'tx', 'ON', 'AA', '', 'Texas']) {
      const result = UsStateCode.safeParse(code);
      expect(result.success, code).toBe(false);
      expect(result.error?.issues[0]?.message).toMatch(/US state/);
    }
  });

  it('reads a code or a full name in any case, and never cuts a name short', () => {
    expect(stateCodeOf('Texas')).toBe('TX');
    expect(stateCodeOf('  texas ')).toBe('TX');
    expect(stateCodeOf('tx')).toBe('TX');
    expect(stateCodeOf('New  York')).toBe('NY');
    expect(stateCodeOf('Washington D.C.')).toBe('DC');
    expect(stateCodeOf('Te')).toBeNull();
    expect(stateCodeOf('Tex')).toBeNull();
  });
});

describe('US states at the app boundaries', () => {
  it('the IPC contract refuses an unknown code, with a message that names the state', () => {
    const args = IPC_CALLS['protocols.create'].args;
    expect(args.safeParse({ draft: inState('TX') }).success).toBe(true);
    const refused = args.safeParse({ draft: inState('TE') });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues).toEqual([
      expect.objectContaining({
        path: ['draft', 'customer', 'address', 'state'],
        message: 'a US state, DC or territory code (2 letters, such as OR or TX)',
      }),
    ]);
    expect(
      IPC_CALLS['orders.create'].args.safeParse({ from: 'scratch', draft: inState('TE') }),
    ).toMatchObject({ success: false });
  });

  it("the spec's own request (the sandbox's rule) still takes any 2 characters", () => {
    expect(ProtocolRequest.safeParse(inState('TE')).success).toBe(true);
    expect(ProtocolInput.safeParse(inState('TE')).success).toBe(false);
  });

  it('the store refuses to write a draft with an unknown state', () => {
    const store = memoryStore();
    expect(() => store.protocols.createDraft(inState('TE'))).toThrow(/US state/);
    const saved = store.protocols.createDraft(inState('TX'));
    expect(() => store.protocols.updateDraft(saved.localId, inState('TE'))).toThrow(/US state/);
    expect(store.protocols.get(saved.localId)!.draft.customer.address.state).toBe('TX');
  });

  it('the editor takes the code its list gives, and refuses anything else', () => {
    const customer = {
      sourceId: 'P-1',
      firstName: 'Ada',
      lastName: 'Lee',
      email: '',
      phone: '',
      address: { line1: '1 Main St', line2: '', city: 'Austin', state: 'TX', zipCode: '73301' },
    };
    expect(CustomerForm.parse(customer).address.state).toBe('TX');
    for (const state of ['TE', '']) {
      const result = CustomerForm.safeParse({
        ...customer,
        address: { ...customer.address, state },
      });
      expect(result.error?.issues.map((i) => i.path.join('.'))).toEqual(['address.state']);
    }
  });

  it('the CSV import takes a code or a full name in any case, stores the code, and refuses the rest', () => {
    const store = memoryStore();
    store.products.upsertMany([product(1001, { name: 'Magnesium' })]);
    const header = headerRow(1);
    const row = (sourceId: string, state: string, zipCode = '73301') => {
      const cells: Record<string, string> = {
        'Patient ID': sourceId,
        'First name': 'Ada',
        'Last name': sourceId,
        'Address line 1': '1 Main St',
        City: 'Austin',
        State: state,
        'ZIP code': zipCode,
        'Days supply': '30',
        'Shipping method': 'STANDARD',
        'Order type': 'ONE_TIME',
        'Product 1 ID': '1001',
        'Product 1 morning': '1',
      };
      return header.map((h) => cells[h] ?? '');
    };
    const text = writeCsv(header, [
      row('P1', 'Texas'),
      row('P2', 'tx'),
      row('P3', 'new mexico', '87501'),
      row('P4', 'TE'),
      row('P5', 'Te'),
      row('P6', ''),
    ]);
    const plan = planImport(store, text);
    expect(plan.requests.map((r) => r.customer.address.state)).toEqual(['TX', 'TX', 'NM']);
    expect(plan.preview.bad.map((b) => b.reasons)).toEqual([
      [
        {
          column: 'State',
          message:
            '"TE" is not a US state: give its 2-letter code or its full name (such as TX or Texas)',
        },
      ],
      [
        {
          column: 'State',
          message:
            '"Te" is not a US state: give its 2-letter code or its full name (such as TX or Texas)',
        },
      ],
      [{ column: 'State', message: 'is required' }],
    ]);
  });
});
