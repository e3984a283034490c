import Database from 'better-sqlite3-multiple-ciphers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GroupCommit } from '@sandbox/store/group-commit';

/** The sandbox's group commit on a real SQLite database. */
describe('GroupCommit', () => {
  let db: Database.Database;
  let group: GroupCommit;
  const insert = (n: number) => () => {
    db.prepare('INSERT INTO t (n) VALUES (?)').run(n);
  };
  const rows = () =>
    (db.prepare('SELECT n FROM t ORDER BY n').all() as { n: number }[]).map((r) => r.n);

  beforeEach(() => {
    db = new Database(':memory:');
    db.exec('CREATE TABLE t (n INTEGER PRIMARY KEY CHECK (n >= 0))');
    group = new GroupCommit(db);
  });
  afterEach(() => db.close());

  it('commits the writes of one turn in one transaction, before any of them resolves', async () => {
    const commits: number[][] = [];
    const done = [1, 2, 3].map((n) => group.run(insert(n)).then(() => commits.push(rows())));
    expect(rows()).toEqual([]); // nothing is written before the end of the turn
    await Promise.all(done);
    // Each caller learns of its commit only once all three are in.
    expect(commits).toEqual([
      [1, 2, 3],
      [1, 2, 3],
      [1, 2, 3],
    ]);
  });

  it('runs the group as one transaction: a write sees the ones queued before it', async () => {
    let seenBySecond: number[] = [];
    await Promise.all([
      group.run(insert(1)),
      group.run(() => {
        seenBySecond = rows();
        expect(db.inTransaction).toBe(true);
      }),
    ]);
    expect(seenBySecond).toEqual([1]);
  });

  it('gives a write that throws its own error and keeps every other write of the group', async () => {
    const outcomes = await Promise.allSettled([
      group.run(insert(1)),
      group.run(insert(-5)), // violates the CHECK constraint
      group.run(() => {
        insert(3)();
        throw new Error('refused after writing');
      }),
      group.run(insert(4)),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual([
      'fulfilled',
      'rejected',
      'rejected',
      'fulfilled',
    ]);
    expect(String((outcomes[1] as PromiseRejectedResult).reason)).toMatch(/CHECK constraint/);
    expect(String((outcomes[2] as PromiseRejectedResult).reason)).toMatch(/refused after writing/);
    // The failing write's own rows are undone, including what it wrote before it threw.
    expect(rows()).toEqual([1, 4]);
  });

  it('isolates a write that only fails at COMMIT (a deferred foreign key)', async () => {
    db.pragma('foreign_keys = ON');
    db.exec(`CREATE TABLE parent (id INTEGER PRIMARY KEY);
      CREATE TABLE child (id INTEGER PRIMARY KEY,
        parent INTEGER REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED)`);
    const outcomes = await Promise.allSettled([
      group.run(insert(1)),
      group.run(() => {
        db.prepare('INSERT INTO child (id, parent) VALUES (1, 99)').run(); // no parent 99
      }),
      group.run(insert(2)),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(String((outcomes[1] as PromiseRejectedResult).reason)).toMatch(/FOREIGN KEY/);
    expect(rows()).toEqual([1, 2]);
    expect(db.prepare('SELECT COUNT(*) AS n FROM child').get()).toEqual({ n: 0 });
  });

  it('starts a new group for writes queued after a flush', async () => {
    await group.run(insert(1));
    expect(rows()).toEqual([1]);
    await Promise.all([group.run(insert(2)), group.run(insert(3))]);
    expect(rows()).toEqual([1, 2, 3]);
  });
});
