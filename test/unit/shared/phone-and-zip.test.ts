import { describe, expect, it } from 'vitest';
import { IPC_CALLS } from '@shared/ipc';
import { ProtocolRequest } from '@shared/api';
import { NOT_A_PHONE, isPhoneNumber } from '@shared/protocol-input';
import { US_STATES } from '@shared/us-states';
import { zipPlaces, zipStateMismatch } from '@shared/zip-prefixes';
import { memoryStore, protocolRequest } from '@test/support/store-fixtures';

const patient = (phone: string | null, state: string, zipCode: string) =>
  protocolRequest({
    phone,
    address: { line1: '1 Main St', line2: null, city: 'Somewhere', state, zipCode },
  });

describe('a patient’s phone', () => {
  it('takes digits with the usual separators and a leading +', () => {
    for (const phone of [
      '503-555-0100',
      '(503) 555-0100',
      '+1 503 555 0100',
      '503.555.0100',
      '5035550100',
      '555-0100',
      '+44 20 7946 0958',
    ])
      expect(isPhoneNumber(phone), phone).toBe(true);
  });

  it('refuses letters, a + inside, too few or too many digits', () => {
    for (const phone of [
      'abc',
      '503-555-O100',
      '1+503 555 0100',
      '555-010',
      '1234567890123456',
      '---',
      '503 555 0100 x12',
    ])
      expect(isPhoneNumber(phone), phone).toBe(false);
  });
});

describe('a ZIP code’s state', () => {
  it('knows where each prefix delivers, a second place where a prefix has one', () => {
    expect(zipPlaces('10025')).toEqual(['NY']);
    expect(zipPlaces('78701')).toEqual(['TX']);
    expect(zipPlaces('06390')).toEqual(['CT', 'NY']);
    expect(zipPlaces('96950')).toEqual(['GU', 'MP']);
    expect(zipPlaces('00012')).toEqual([]);
  });

  it('gives every US state, DC and territory at least one prefix', () => {
    const all = new Set<string>();
    for (let p = 0; p < 1000; p++)
      for (const place of zipPlaces(String(p).padStart(3, '0'))) all.add(place);
    for (const s of US_STATES) expect(all.has(s.code), s.code).toBe(true);
  });

  it('says in words where the ZIP code is instead', () => {
    expect(zipStateMismatch('10025', 'NY')).toBeNull();
    expect(zipStateMismatch('10025', 'TX')).toBe(
      '10025 is a New York ZIP code, not one in Texas: check the ZIP code or the state',
    );
    expect(zipStateMismatch('09012', 'TX')).toBe(
      '09012 is a military post office (APO/FPO/DPO) ZIP code, not one in Texas: check the ZIP code',
    );
    expect(zipStateMismatch('56800', 'MN')).toBe(
      'no US ZIP code starts with 568: check the ZIP code',
    );
  });
});

describe('phone and ZIP code at the app’s boundaries', () => {
  it('the IPC contract refuses them on their fields', () => {
    const refused = IPC_CALLS['protocols.create'].args.safeParse({
      draft: patient('abc', 'TX', '10025'),
    });
    expect(refused.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['draft.customer.phone', NOT_A_PHONE],
      [
        'draft.customer.address.zipCode',
        '10025 is a New York ZIP code, not one in Texas: check the ZIP code or the state',
      ],
    ]);
    expect(
      IPC_CALLS['protocols.create'].args.safeParse({ draft: patient(null, 'NY', '10025') }).success,
    ).toBe(true);
  });

  it("the spec's request (the sandbox's rule, and what the store reads back) still takes them", () => {
    expect(ProtocolRequest.safeParse(patient('abc', 'TX', '10025')).success).toBe(true);
  });

  it('the store refuses to write them', () => {
    const store = memoryStore();
    expect(() => store.protocols.createDraft(patient('abc', 'OR', '97210'))).toThrow(/phone/);
    expect(() => store.protocols.createDraft(patient(null, 'TX', '10025'))).toThrow(/New York/);
  });
});
