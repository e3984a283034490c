import { describe, expect, it } from 'vitest';
import { CorruptRowError } from '../../../src/main/store';
import { appOrder, memoryStore, product, protocolRequest } from './fixtures';

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
    expect(store.outbox.count()).toBe(2);
  });

  it('a bad enum in a column is reported too', () => {
    const store = memoryStore();
    const p = store.protocols.createDraft(protocolRequest());
    store.db.pragma('ignore_check_constraints = ON');
    store.db.prepare("UPDATE protocols SET sync_state = 'weird' WHERE local_id = ?").run(p.localId);
    expect(caught(() => store.protocols.get(p.localId)).message).toMatch(/sync_state/);
  });

  it('orders, products and batch items', () => {
    const store = memoryStore();
    store.orders.upsert(appOrder('o_good'), { source: 'pulled' });
    store.orders.upsert(appOrder('o_bad'), { source: 'pulled' });
    store.db
      .prepare("UPDATE orders SET body = json_set(body, '$.status', 'LOST') WHERE id = 'o_bad'")
      .run();
    expect(caught(() => store.orders.get('o_bad')).message).toMatch(
      /^Corrupt row in orders \(id=o_bad\): body\.status/,
    );
    expect(store.orders.get('o_good')?.id).toBe('o_good');

    store.products.upsertMany([product(1), product(2)]);
    store.db.prepare("UPDATE products SET body = json_remove(body, '$.price') WHERE id = 2").run();
    expect(caught(() => store.products.get(2)).message).toMatch(/products \(id=2\): body\.price/);
    expect(store.products.get(1)?.id).toBe(1);

    const ids = [store.protocols.createDraft(protocolRequest()).localId];
    const batch = store.batches.createBatch(
      ids,
      (p) =>
        ({
          ...p.draft,
          daysSupply: 30,
          shippingMethod: 'STANDARD',
          orderType: 'ONE_TIME',
        }) as never,
      {
        concurrency: 1,
      },
    );
    store.db.prepare('UPDATE batch_items SET error = \'{"kind":"martian"}\'').run();
    expect(caught(() => store.batches.item(batch.id, 0)).message).toMatch(
      /batch_items \(batch_id=.*, seq=0\): error/,
    );
    expect(store.batches.get(batch.id)?.total).toBe(1);
  });
});
