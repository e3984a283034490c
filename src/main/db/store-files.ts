import { closeSync, existsSync, fsyncSync, openSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * Where the stores live in the app's data directory:
 *   app.db                 connections (no secrets) and settings; locked while the app runs
 *   connections/<id>.db    one store per saved connection: mirror, drafts, jobs, orders
 *   connections/<id>.damaged-<time>.db   a damaged store, moved aside and kept
 *   order-desk.db          the single store of earlier versions (single-file-migration.ts)
 */
export const APP_STORE_FILE = 'app.db';
export const LEGACY_STORE_FILE = 'order-desk.db';
export const CONNECTIONS_DIR = 'connections';

/** The store file of a saved connection (ids are letters, digits, "-" and "_": a safe name). */
export const connectionStoreFile = (dataDir: string, connectionId: string): string =>
  join(dataDir, CONNECTIONS_DIR, `${connectionId}.db`);

/** The files SQLite may keep beside a database: its write-ahead log, shared memory, journal. */
export const SIDE_FILES = ['-wal', '-shm', '-journal'] as const;

/** "20250301-101502" in UTC, for names that sort by time. */
export function fileTime(ms: number): string {
  return new Date(ms).toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
}

/**
 * The name a database moved aside gets: `<name>.<reason>-<time>.db` in the same folder, one that
 * is free with its side files.
 */
export function asideName(file: string, reason: string, now: number): string {
  const stem = basename(file).replace(/\.db$/, '');
  let target = join(dirname(file), `${stem}.${reason}-${fileTime(now)}.db`);
  for (let n = 2; [target, ...SIDE_FILES.map((s) => target + s)].some(existsSync); n++)
    target = join(dirname(file), `${stem}.${reason}-${fileTime(now)}-${n}.db`);
  return target;
}

/**
 * Renames a database and its side files to `target` (no copy, nothing deleted). The side files
 * keep their suffixes, so SQLite still finds the log that belongs to the file.
 */
export function moveStoreFiles(file: string, target: string): void {
  // The database first: a crash before its side files follow leaves them alone at the old name,
  // where orphanSideFiles() finds them without their database (they are then moved aside too),
  // instead of a stale database at the old name without the log that completes it.
  if (existsSync(file)) renameSync(file, target);
  for (const suffix of SIDE_FILES) {
    if (existsSync(file + suffix)) renameSync(file + suffix, target + suffix);
  }
  syncFolder(dirname(file));
}

/** Moves a database and its side files aside (asideName); returns where the database went. */
export function moveAside(file: string, reason: string, now: number): string {
  const target = asideName(file, reason, now);
  moveStoreFiles(file, target);
  return target;
}

/** Side files left without their database (a move aside cut short): none, or their names. */
export function orphanSideFiles(file: string): string[] {
  if (existsSync(file)) return [];
  return SIDE_FILES.map((s) => file + s).filter(existsSync);
}

/** Deletes a database and its side files (the user asked for it: a removed connection). */
export function deleteStoreFiles(file: string): void {
  for (const suffix of SIDE_FILES) rmSync(file + suffix, { force: true });
  rmSync(file, { force: true });
  syncFolder(dirname(file));
}

/**
 * Makes a rename in `dir` durable (fsync of the folder). Best effort: Windows cannot open a
 * folder for it, and its renames are journalled by NTFS anyway.
 */
export function syncFolder(dir: string): void {
  let fd: number | null = null;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // not supported here
  } finally {
    if (fd !== null) closeSync(fd);
  }
}
