import { createHash } from 'node:crypto';
import { closeSync, openSync, readFileSync, readSync, writeSync } from 'node:fs';
import Database from 'better-sqlite3-multiple-ciphers';
import { applyKey, type StoreKey } from '@main/db/cipher';
import { TEST_KEY } from './store-key';

/** The page size of every store (SQLite's default, which the stores keep). */
export const PAGE = 4096;

export interface PageInfo {
  /** 1-based page number. */
  page: number;
  /** Cells on it: rows of a table leaf, entries of an index page. */
  cells: number;
}

/**
 * The pages of one table or index of a database file, of one type ('leaf' or 'internal'), as
 * SQLite's dbstat table lists them. Opened read-only and closed again; call it on a file no
 * process of this test holds open (a file descriptor closed here drops the process's locks).
 */
export function pagesOf(
  file: string,
  name: string,
  type: 'leaf' | 'internal',
  /** The file's key (the tests' by default), or 'plain' for a store from before encryption. */
  key: StoreKey | 'plain' = TEST_KEY,
): PageInfo[] {
  const db = new Database(file, { readonly: true });
  if (key !== 'plain') applyKey(db, key);
  try {
    return (
      db
        .prepare(
          'SELECT pageno AS page, ncell AS cells FROM dbstat WHERE name = ? AND pagetype = ? ORDER BY pageno',
        )
        .all(name, type) as PageInfo[]
    ).map((p) => ({ page: p.page, cells: p.cells }));
  } finally {
    db.close();
  }
}

/**
 * The garbage damagePages() writes over `page`: deterministic bytes that are no valid b-tree page
 * (the first byte, the page type, is none SQLite knows).
 */
export function garbage(page: number): Buffer {
  const bytes = Buffer.alloc(PAGE);
  let x = page * 2654435761;
  for (let i = 0; i < PAGE; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    bytes[i] = x >>> 24;
  }
  bytes[0] = 0x66;
  return bytes;
}

/** Overwrites whole pages of a database file with garbage, as a failing disk or a stray write would. */
export function damagePages(file: string, pages: readonly number[]): void {
  const fd = openSync(file, 'r+');
  try {
    for (const page of pages) writeSync(fd, garbage(page), 0, PAGE, (page - 1) * PAGE);
  } finally {
    closeSync(fd);
  }
}

/** The bytes of one page of a file. */
export function pageBytes(file: string, page: number): Buffer {
  const fd = openSync(file, 'r');
  try {
    const bytes = Buffer.alloc(PAGE);
    readSync(fd, bytes, 0, PAGE, (page - 1) * PAGE);
    return bytes;
  } finally {
    closeSync(fd);
  }
}

/** The SHA-256 of a file's bytes (to show a kept file is exactly as it was found). */
export const sha256 = (file: string): string =>
  createHash('sha256').update(readFileSync(file)).digest('hex');
