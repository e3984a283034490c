import { afterEach, describe, expect, it } from 'vitest';
import type { ActivityActor } from '@shared/activity-views';
import { ActivityLog } from '@main/activity/activity-log';
import { GENESIS_HASH, checkChain, entryHash } from '@main/activity/activity-chain';
import { ActivityRetention } from '@main/activity/activity-retention';
import type { LocalStore } from '@main/stores';
import { manualClock, memoryStore } from '@test/support/store-fixtures';

const ACTOR: ActivityActor = {
  deskId: 'desk-1',
  deskName: 'front-desk-pc',
  osUser: 'reception',
  staff: 'Dana',
};
const DAY = 86_400_000;

const stores: LocalStore[] = [];
afterEach(() => {
  for (const store of stores.splice(0)) store.close();
});

/** A store with an activity log on a clock the test moves. */
function logged(start = Date.parse('2020-01-01T09:00:00Z')) {
  const clock = manualClock(start);
  const store = memoryStore(clock);
  stores.push(store);
  const log = new ActivityLog({ repo: store.activity, actor: () => ACTOR, clock });
  const write = (n: number) => {
    for (let i = 0; i < n; i++) {
      log.record({
        action: 'protocol-edited',
        subjects: {
          patients: [`pt-${i}`],
          protocols: [`7a1f4c52-3a3e-4d3e-9b7c-2f1d4c5b6a7${i % 10}`],
        },
      });
      clock.advance(DAY);
    }
  };
  return { store, log, clock, write };
}

/** Runs raw SQL on the activity table with its append-only triggers out of the way. */
function tamper(store: LocalStore, sql: string, ...params: unknown[]) {
  store.db.exec('DROP TRIGGER activity_no_update; DROP TRIGGER activity_no_delete;');
  store.db.prepare(sql).run(...params);
}

describe('the activity chain', () => {
  it('links each entry to the one before, from the genesis value, and checks intact', async () => {
    const { store, write } = logged();
    write(5);
    const rows = store.db.prepare('SELECT * FROM activity ORDER BY seq').all() as {
      seq: number;
      prev_hash: string;
      hash: string;
    }[];
    expect(rows.map((r) => r.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(rows[0]!.prev_hash).toBe(GENESIS_HASH);
    for (let i = 1; i < rows.length; i++) expect(rows[i]!.prev_hash).toBe(rows[i - 1]!.hash);
    for (const row of rows) expect(entryHash(row as never)).toBe(row.hash);
    expect(await checkChain(store.db)).toEqual({ intact: true, entries: 5, first: 1 });
  });

  it('checks an empty record as intact', async () => {
    const { store } = logged();
    expect(await checkChain(store.db)).toEqual({ intact: true, entries: 0, first: null });
  });

  it('names the entry whose field was changed', async () => {
    const { store, write } = logged();
    write(5);
    tamper(store, "UPDATE activity SET staff = 'Someone else' WHERE seq = 3");
    expect(await checkChain(store.db)).toEqual({
      intact: false,
      entries: 2,
      brokenAt: 3,
      reason: 'hash-mismatch',
      message: 'Entry #3 was changed after it was written: its content does not match its hash.',
    });
  });

  it('names the entry after one changed and given a new hash', async () => {
    const { store, write } = logged();
    write(4);
    const row = store.db.prepare('SELECT * FROM activity WHERE seq = 2').get() as never;
    const forged = entryHash({ ...(row as object), action: 'protocol-created' } as never);
    tamper(
      store,
      "UPDATE activity SET action = 'protocol-created', hash = ? WHERE seq = 2",
      forged,
    );
    const check = await checkChain(store.db);
    expect(check).toMatchObject({ intact: false, brokenAt: 3, reason: 'prev-link' });
  });

  it('names the gap a deleted middle entry leaves', async () => {
    const { store, write } = logged();
    write(5);
    tamper(store, 'DELETE FROM activity WHERE seq = 3');
    expect(await checkChain(store.db)).toEqual({
      intact: false,
      entries: 2,
      brokenAt: 4,
      reason: 'gap',
      message: 'Entry #4 comes after #2: entry #3 is missing.',
    });
  });

  it('never gives a seq twice: the newest entry removed shows as a gap', async () => {
    const { store, write } = logged();
    write(3);
    tamper(store, 'DELETE FROM activity WHERE seq = 3');
    write(1);
    expect(await checkChain(store.db)).toMatchObject({ brokenAt: 4, reason: 'gap' });
  });

  it('walks a long record in chunks', async () => {
    const { store, write } = logged();
    write(4500);
    let pauses = 0;
    const check = await checkChain(store.db, async () => {
      pauses++;
    });
    expect(check).toEqual({ intact: true, entries: 4500, first: 1 });
    expect(pauses).toBe(2);
  });
});

describe('the append-only triggers', () => {
  it('refuse every change and every delete of an entry', () => {
    const { store, write } = logged();
    write(3);
    expect(() => store.db.prepare("UPDATE activity SET staff = 'x' WHERE seq = 2").run()).toThrow(
      /append-only: an entry cannot be changed/,
    );
    expect(() => store.db.prepare('DELETE FROM activity WHERE seq = 1').run()).toThrow(
      /only the retention purge removes entries/,
    );
    expect(() => store.db.prepare('DELETE FROM activity').run()).toThrow(/append-only/);
    expect(store.db.prepare('SELECT COUNT(*) AS n FROM activity').get()).toEqual({ n: 3 });
  });

  it('let the purge remove only the old entries it names, and only while it runs', () => {
    const { store, write } = logged();
    write(4);
    store.db
      .prepare('INSERT INTO activity_retention (id, purge_through, purge_before) VALUES (1, 2, ?)')
      .run('2030-01-01T00:00:00.000Z');
    // Beyond the seq named: refused even though it is old.
    expect(() => store.db.prepare('DELETE FROM activity WHERE seq = 3').run()).toThrow(
      /append-only/,
    );
    store.db.prepare('DELETE FROM activity WHERE seq <= 2').run();
    store.db
      .prepare('UPDATE activity_retention SET purge_through = NULL, purge_before = NULL')
      .run();
    expect(() => store.db.prepare('DELETE FROM activity WHERE seq = 3').run()).toThrow(
      /append-only/,
    );
  });
});

describe('the retention purge', () => {
  const retention = (s: ReturnType<typeof logged>, years: number) =>
    new ActivityRetention({
      repo: s.store.activity,
      log: s.log,
      transaction: (fn) => s.store.transaction(fn),
      years: () => years,
      clock: s.clock,
      timers: { setTimeout: () => 0, clearTimeout: () => undefined },
    });

  it('removes the entries older than the cutoff, records how many, and the check starts after them', async () => {
    const s = logged(Date.parse('2018-01-01T09:00:00Z'));
    s.write(3); // 2018-01-01 .. 2018-01-03
    s.clock.advance(3 * 365 * DAY);
    s.write(2); // 2021
    const last = s.store.db.prepare('SELECT hash FROM activity WHERE seq = 3').get() as {
      hash: string;
    };
    const purged = retention(s, 1).run();
    expect(purged).toEqual({ removed: 3, lastSeq: 3, lastHash: last.hash });
    const kept = s.store.activity.page({}, 10, 0);
    expect(kept.map((e) => [e.seq, e.action])).toEqual([
      [6, 'retention-purge'],
      [5, 'protocol-edited'],
      [4, 'protocol-edited'],
    ]);
    // The app purged by itself: this desk and account, no person named.
    expect(kept[0]).toMatchObject({ staff: null, osUser: 'reception', deskId: 'desk-1' });
    expect(kept[0]!.detail.purge).toMatchObject({
      removed: 3,
      lastRemovedSeq: 3,
      lastRemovedHash: last.hash,
      years: 1,
    });
    expect(await checkChain(s.store.db)).toEqual({ intact: true, entries: 3, first: 4 });
    // Nothing more is old enough: no second purge entry.
    expect(retention(s, 1).run()).toBeNull();
    expect(s.store.activity.count({})).toBe(3);
    // The purge's bounds are cleared: the triggers refuse deletes again.
    expect(() => s.store.db.prepare('DELETE FROM activity WHERE seq = 4').run()).toThrow(
      /append-only/,
    );
  });

  it('keeps an old entry written after a newer one (a clock set back): only a run at the start goes', () => {
    const s = logged(Date.parse('2021-06-01T09:00:00Z'));
    s.write(1); // 2021
    s.clock.advance(-5 * 365 * DAY);
    s.write(1); // 2016, after the 2021 entry
    expect(retention(s, 1).run()).toBeNull();
  });

  it('checks broken when the anchor was moved or the first kept entry changed', async () => {
    const s = logged(Date.parse('2018-01-01T09:00:00Z'));
    s.write(3);
    s.clock.advance(3 * 365 * DAY);
    s.write(2);
    retention(s, 1).run();
    s.store.db
      .prepare('UPDATE activity_retention SET anchor_hash = ? WHERE id = 1')
      .run('0'.repeat(64));
    expect(await checkChain(s.store.db)).toMatchObject({
      intact: false,
      brokenAt: 4,
      reason: 'anchor',
    });
  });

  it('checks broken when the anchor names an entry no purge removed', async () => {
    const s = logged(Date.parse('2018-01-01T09:00:00Z'));
    s.write(3);
    const hash = (
      s.store.db.prepare('SELECT hash FROM activity WHERE seq = 1').get() as { hash: string }
    ).hash;
    // Entries 1 removed behind the purge's back, the anchor forged to match.
    tamper(s.store, 'DELETE FROM activity WHERE seq = 1');
    s.store.db
      .prepare('INSERT INTO activity_retention (id, anchor_seq, anchor_hash) VALUES (1, 1, ?)')
      .run(hash);
    expect(await checkChain(s.store.db)).toMatchObject({
      intact: false,
      brokenAt: 2,
      reason: 'anchor',
      message: expect.stringContaining('no retention purge entry'),
    });
  });
});
