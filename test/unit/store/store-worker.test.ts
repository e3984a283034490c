import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Db } from '../../../src/main/store';
import {
  PlanRefusedError,
  StoreWorker,
  StoreWorkerLostError,
  type WritePlan,
} from '../../../src/main/store/store-worker';
import { waitFor } from '../../support/wait';

/** The store's worker thread and its write plans, on a real file. */
describe('StoreWorker', () => {
  let dir: string;
  let db: Db;
  let worker: StoreWorker;

  beforeEach(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'order-desk-worker-'));
    const file = path.join(dir, 'store.db');
    db = openStore(file, {
      migrations: [
        `CREATE TABLE parent (id INTEGER PRIMARY KEY);
         CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT UNIQUE, parent INTEGER REFERENCES parent(id), n INTEGER NOT NULL DEFAULT 0);
         INSERT INTO parent (id) VALUES (1);`,
      ],
    });
    worker = new StoreWorker(file);
    await waitFor(() => worker.running, 5_000, 'the worker never became ready');
  });
  afterEach(() => {
    worker.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const names = () =>
    (db.prepare('SELECT name FROM t ORDER BY id').all() as { name: string }[]).map((r) => r.name);

  it('commits a plan in one transaction and answers the rows of its RETURNING steps', async () => {
    const rows = await worker.write([
      { sql: 'INSERT INTO t (name, parent) VALUES (?, ?)', params: ['a', 1], expect: 'change' },
      { sql: 'INSERT INTO t (name) VALUES (@name)', params: [{ name: 'b' }], expect: 'any' },
      { sql: 'UPDATE t SET n = n + 1 RETURNING name, n', params: [], expect: 'rows' },
    ]);
    expect(rows).toEqual([
      [
        { name: 'a', n: 1 },
        { name: 'b', n: 1 },
      ],
    ]);
    expect(names()).toEqual(['a', 'b']); // seen by the main connection
  });

  it('refuses a plan, writing nothing of it, when a step that must change a row changes none', async () => {
    const plan: WritePlan = [
      { sql: 'INSERT INTO t (name) VALUES (?)', params: ['a'], expect: 'change' },
      { sql: "UPDATE t SET n = 1 WHERE name = 'nobody'", params: [], expect: 'change' },
    ];
    const error = await worker.write(plan).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlanRefusedError);
    expect(error).toMatchObject({
      code: 'NO_CHANGE',
      message: /step 1 of the plan changed no row/,
    });
    expect(names()).toEqual([]);
    // The same plan without the step that cannot change anything goes through.
    await worker.write(plan.slice(0, 1));
    expect(names()).toEqual(['a']);
  });

  it('refuses a plan that cannot be sent to the thread, and goes on serving the next', async () => {
    // Parameters a thread cannot receive (a function): nothing reaches the worker.
    const unsendable: WritePlan = [
      { sql: 'INSERT INTO t (name) VALUES (?)', params: [() => 'a'], expect: 'change' },
    ];
    const error = await worker.write(unsendable).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlanRefusedError);
    expect(error).toMatchObject({ code: 'NOT_SENT', message: /could not be sent/ });
    expect(worker.running).toBe(true);
    await worker.write([
      { sql: 'INSERT INTO t (name) VALUES (?)', params: ['b'], expect: 'change' },
    ]);
    expect(names()).toEqual(['b']);
  });

  it("refuses a plan that breaks a constraint, with SQLite's code; foreign keys are enforced as on the main connection", async () => {
    await worker.write([
      { sql: 'INSERT INTO t (name) VALUES (?)', params: ['a'], expect: 'change' },
    ]);
    const unique = await worker
      .write([
        { sql: 'INSERT INTO t (name) VALUES (?)', params: ['b'], expect: 'change' },
        { sql: 'INSERT INTO t (name) VALUES (?)', params: ['a'], expect: 'change' },
      ])
      .catch((e: unknown) => e);
    expect(unique).toMatchObject({ name: 'PlanRefusedError', code: 'SQLITE_CONSTRAINT_UNIQUE' });
    const foreign = await worker
      .write([
        { sql: 'INSERT INTO t (name, parent) VALUES (?, ?)', params: ['c', 99], expect: 'change' },
      ])
      .catch((e: unknown) => e);
    expect(foreign).toMatchObject({
      name: 'PlanRefusedError',
      code: 'SQLITE_CONSTRAINT_FOREIGNKEY',
    });
    expect(names()).toEqual(['a']);
  });

  it('fails a request whose answer it cannot give any more as lost: it may have committed all the same', async () => {
    const written = worker.write([
      { sql: 'INSERT INTO t (name) VALUES (?)', params: ['in flight'], expect: 'change' },
    ]);
    worker.close(); // the worker takes the write first, then the close: its answer never comes
    await expect(written).rejects.toBeInstanceOf(StoreWorkerLostError);
    expect(names()).toEqual(['in flight']);
    expect(worker.running).toBe(false);
    await expect(worker.write([])).rejects.toBeInstanceOf(StoreWorkerLostError);
  });

  it('stops for good, saying why, when it cannot open the database', async () => {
    const broken = new StoreWorker(path.join(dir, 'no-such.db'));
    const reason = await new Promise<string>((resolve) => broken.once('stopped', resolve));
    expect(reason).toMatch(/unable to open database file|no such file|SQLITE_CANTOPEN/i);
    expect(broken.running).toBe(false);
    await expect(broken.checkpoint()).rejects.toBeInstanceOf(StoreWorkerLostError);
  });
});
