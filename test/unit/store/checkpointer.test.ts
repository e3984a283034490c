import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLocalStore, openStore, type Db } from '../../../src/main/store';
import { BackgroundCheckpointer } from '../../../src/main/store/checkpointer';
import { StoreWorker } from '../../../src/main/store/store-worker';
import { waitFor } from '../../support/wait';

/** The background WAL checkpointer, on real files. */
describe('BackgroundCheckpointer', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'order-desk-ckpt-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const autocheckpoint = (db: Db) => db.pragma('wal_autocheckpoint', { simple: true });
  const walFrames = (file: string) => {
    const size = existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0;
    return size === 0 ? 0 : Math.round((size - 32) / (4096 + 24));
  };
  const write = (db: Db, rows: number) =>
    db.transaction(() => {
      const insert = db.prepare('INSERT INTO t (body) VALUES (?)');
      for (let i = 0; i < rows; i++) insert.run('x'.repeat(1500));
    })();

  it('takes the checkpoints off the main connection and does them on its worker', async () => {
    const file = path.join(dir, 'store.db');
    const db = openStore(file, {
      migrations: ['CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT);'],
    });
    const lines: string[] = [];
    const worker = new StoreWorker(file);
    const checkpointer = new BackgroundCheckpointer(db, worker, {
      intervalMs: 60_000,
      log: (l) => lines.push(l),
    });
    await waitFor(() => checkpointer.running, 5_000, 'the worker never became ready');
    expect(autocheckpoint(db)).toBe(0);

    // 3,000 rows of 1.5 KB: far over SQLite's own 1,000-page threshold, yet no commit checkpointed,
    // so the pages are all in the WAL and none in the database file yet.
    const before = statSync(file).size;
    write(db, 3_000);
    expect(walFrames(file)).toBeGreaterThan(1_000);
    expect(statSync(file).size).toBe(before);
    checkpointer.request();
    // The worker copies them into the database file.
    await waitFor(
      () => statSync(file).size > before + 3_000 * 1_500,
      5_000,
      'the worker did not checkpoint the WAL into the database file',
    );
    expect(lines).toEqual([]);
    checkpointer.close();
    worker.close();
    db.close();
    expect(existsSync(`${file}-wal`)).toBe(false); // the main connection closed last and cleaned up
  });

  it('gives the checkpoints back to SQLite when the worker cannot open the database', async () => {
    const file = path.join(dir, 'store.db');
    const db = openStore(file, { migrations: ['CREATE TABLE t (id INTEGER PRIMARY KEY);'] });
    db.pragma('wal_autocheckpoint = 0'); // as if the worker had taken over, then failed
    const lines: string[] = [];
    const checkpointer = new BackgroundCheckpointer(
      db,
      new StoreWorker(path.join(dir, 'no-such.db')),
      {
        log: (l) => lines.push(l),
      },
    );
    await waitFor(() => lines.length > 0, 5_000, 'no fallback was reported');
    expect(lines[0]).toMatch(/background checkpoints stopped .*SQLite checkpoints on commit again/);
    expect(checkpointer.running).toBe(false);
    expect(autocheckpoint(db)).toBe(1000);
    checkpointer.close(); // harmless after a fallback
    db.close();
  });

  it('stops quietly when the database was closed before the worker was ready', async () => {
    const file = path.join(dir, 'store.db');
    const db = openStore(file, { migrations: ['CREATE TABLE t (id INTEGER PRIMARY KEY);'] });
    const lines: string[] = [];
    const worker = new StoreWorker(file);
    const checkpointer = new BackgroundCheckpointer(db, worker, { log: (l) => lines.push(l) });
    db.close();
    // The worker becomes ready (or not) with no open connection to hand over: nothing throws.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(checkpointer.running).toBe(false);
    expect(lines).toEqual([]);
    worker.close();
  });

  it('is on for a local store in a file, off in memory, and closes with the store', async () => {
    const file = path.join(dir, 'order-desk.db');
    const store = createLocalStore(file);
    await waitFor(() => autocheckpoint(store.db) === 0, 5_000, 'the store never handed over');
    store.close();
    expect(existsSync(`${file}-wal`)).toBe(false);

    const memory = createLocalStore(':memory:');
    expect(autocheckpoint(memory.db)).toBe(1000);
    memory.close();
  });
});
