import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorDetail, Protocol, ProtocolList } from '@shared/api';
import { startTestSandbox, validOrderBody, type TestSandbox } from '@test/support/sandbox';

/** List protocols with `search`: a part of "first last", case-insensitive, with % and _ taken literally. */

let sb: TestSandbox;
const ids = new Map<string, string>();

const NAMES: [string, string][] = [
  ['Grace', 'Hopper'],
  ['Alan', 'Turing'],
  ['Katherine', 'Johnson'],
  ['Ann_Marie', 'Smith'],
  ['AnnXMarie', 'Jones'],
  ['Liam', 'O%Brien'],
  ['Olivia', 'Oxbridge'],
];

beforeAll(async () => {
  sb = await startTestSandbox();
  for (const [firstName, lastName] of NAMES) {
    const body = validOrderBody();
    const res = await sb.api('POST', '/v1/protocols', {
      ...body,
      customer: { ...body.customer, sourceId: `src-${firstName}`, firstName, lastName },
    });
    expect(res.status).toBe(201);
    ids.set(`${firstName} ${lastName}`, Protocol.parse(res.body).id);
  }
});
afterAll(async () => {
  await sb.close();
});

async function search(term: string): Promise<{ names: string[]; cursor: string | null }> {
  const res = await sb.api('GET', `/v1/protocols?limit=100&search=${encodeURIComponent(term)}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const list = ProtocolList.parse(res.body);
  return {
    names: list.protocols.map((p) => `${p.customer.firstName} ${p.customer.lastName}`).sort(),
    cursor: list.cursor,
  };
}

describe('list protocols with search', () => {
  it('lists every protocol newest first without search', async () => {
    const res = await sb.api('GET', '/v1/protocols?limit=100');
    const list = ProtocolList.parse(res.body);
    expect(list.protocols.map((p) => p.id)).toEqual([...ids.values()].reverse());
    expect(list.cursor).toBeNull();
  });

  it.each([
    ['grace', ['Grace Hopper']],
    ['GRACE', ['Grace Hopper']],
    ['hopper', ['Grace Hopper']],
    ['HoPpEr', ['Grace Hopper']],
    ['opp', ['Grace Hopper']],
    ['grace hopper', ['Grace Hopper']],
    ['Grace Hopper', ['Grace Hopper']],
    ['ace hop', ['Grace Hopper']],
    ['  grace   hopper ', ['Grace Hopper']],
    ['turing', ['Alan Turing']],
    ['alan turing', ['Alan Turing']],
    ['jo', ['AnnXMarie Jones', 'Katherine Johnson']],
  ])('search=%j matches %j', async (term, expected) => {
    const { names, cursor } = await search(term);
    expect(names).toEqual(expected);
    expect(cursor).toBeNull();
  });

  it('finds a protocol by first name, last name and "first last"', async () => {
    const id = ids.get('Katherine Johnson');
    for (const term of ['katherine', 'JOHNSON', 'Katherine Johnson']) {
      const list = ProtocolList.parse(
        (await sb.api('GET', `/v1/protocols?search=${encodeURIComponent(term)}`)).body,
      );
      expect(list.protocols.map((p) => p.id)).toEqual([id]);
    }
  });

  it('answers an empty list with cursor null when nothing matches', async () => {
    const res = await sb.api('GET', '/v1/protocols?search=zzzz');
    expect(res.status).toBe(200);
    expect(ProtocolList.parse(res.body)).toEqual({ protocols: [], cursor: null });
    expect(await search('hopper grace')).toEqual({ names: [], cursor: null });
  });

  it('treats _ literally, not as a one-character wildcard', async () => {
    expect((await search('ann_m')).names).toEqual(['Ann_Marie Smith']);
    expect((await search('_')).names).toEqual(['Ann_Marie Smith']);
  });

  it('treats % literally, not as a wildcard', async () => {
    expect((await search('o%b')).names).toEqual(['Liam O%Brien']);
    expect((await search('%')).names).toEqual(['Liam O%Brien']);
    expect((await search('a%t')).names).toEqual([]);
  });

  it('treats a backslash literally', async () => {
    expect((await search('\\')).names).toEqual([]);
    expect((await search('o\\%b')).names).toEqual([]);
  });

  it('pages through search results with the cursor', async () => {
    const first = ProtocolList.parse((await sb.api('GET', '/v1/protocols?search=o&limit=2')).body);
    expect(first.protocols).toHaveLength(2);
    expect(first.cursor).not.toBeNull();
    const all = (await search('o')).names;
    const seen = first.protocols.map((p) => p.id);
    let cursor = first.cursor;
    while (cursor) {
      const page = ProtocolList.parse(
        (await sb.api('GET', `/v1/protocols?search=o&limit=2&cursor=${encodeURIComponent(cursor)}`))
          .body,
      );
      seen.push(...page.protocols.map((p) => p.id));
      cursor = page.cursor;
    }
    expect(seen).toHaveLength(all.length);
    expect(new Set(seen).size).toBe(all.length);
  });

  it('answers 400 {detail} for a search longer than 200 characters', async () => {
    const res = await sb.api('GET', `/v1/protocols?search=${'a'.repeat(201)}`);
    expect(res.status).toBe(400);
    expect(ErrorDetail.parse(res.body).detail).toMatch(/search/);
  });
});
