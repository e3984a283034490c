/**
 * A probe, not a bench (bench/README.md, "What the encryption costs, and why"): what one page
 * read from the OS costs under each cipher SQLite3 Multiple Ciphers offers, against none, on the
 * same 20,000 orders: a whole read with a cache too small, then a write of every row and a
 * checkpoint. The product's settings are src/shared/store-cipher.ts; the others only compare.
 *
 *   npx tsx bench/probes/cipher-page-cost.ts [--orders 20000]
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3-multiple-ciphers';
import { CIPHER_SETTINGS, rawKey } from '@shared/store-cipher';
import { BENCH_KEY, benchStore } from '@bench/bench-stores';
import { insertBenchOrders } from '@bench/order-queue-data';
import { median, positiveIntegers } from '@bench/stats';

const { values } = parseArgs({ options: { orders: { type: 'string', default: '20000' } } });
const { orders } = positiveIntegers({ orders: values.orders });

const RAW = rawKey(BENCH_KEY);
const PASSPHRASE = "'probe passphrase'";
/** The settings before the key, and the key (chacha20 takes a passphrase, not a raw key). */
const CIPHERS: Record<string, { settings: string[]; key: string; pageSize?: number } | null> = {
  'none (plain)': null,
  'SQLCipher 4: AES-256-CBC + HMAC-SHA512 (the product)': {
    settings: [...CIPHER_SETTINGS],
    key: RAW,
  },
  'SQLCipher 4 with 16 KB pages': {
    settings: [...CIPHER_SETTINGS, 'legacy_page_size = 16384'],
    key: RAW,
    pageSize: 16384,
  },
  'SQLCipher, HMAC-SHA256': {
    settings: ["cipher = 'sqlcipher'", 'legacy = 0', 'hmac_algorithm = 1', 'kdf_algorithm = 1'],
    key: RAW,
  },
  'SQLCipher, HMAC-SHA1': {
    settings: ["cipher = 'sqlcipher'", 'legacy = 0', 'hmac_algorithm = 0', 'kdf_algorithm = 0'],
    key: RAW,
  },
  'SQLCipher 4 without HMAC (no check of a page)': {
    settings: [...CIPHER_SETTINGS, 'hmac_use = 0'],
    key: RAW,
  },
  'ChaCha20-Poly1305 (sqleet)': { settings: ["cipher = 'chacha20'"], key: PASSPHRASE },
};

const dir = mkdtempSync(path.join(os.tmpdir(), 'order-desk-cipher-probe-'));
try {
  const source = path.join(dir, 'plain.db');
  const seed = benchStore(source, 'plain');
  insertBenchOrders(seed, orders);
  seed.db.pragma('journal_mode = DELETE');
  seed.close();
  console.log(
    `${orders.toLocaleString('en')} orders; a full read with a 1 MB cache (median of 7), then a column of every row changed in one transaction and checkpointed (median of 3)\n`,
  );
  for (const [i, [name, cipher]] of Object.entries(CIPHERS).entries()) {
    const file = path.join(dir, `${i}.db`);
    copyFileSync(source, file);
    const open = () => {
      const db = new Database(file);
      if (cipher) {
        for (const setting of cipher.settings) db.pragma(setting);
        db.pragma(`key = ${cipher.key}`);
      }
      db.pragma('cache_size = -1000');
      return db;
    };
    if (cipher) {
      if (cipher.pageSize) {
        const db = new Database(file);
        db.pragma(`page_size = ${cipher.pageSize}`);
        db.exec('VACUUM');
        db.close();
      }
      const db = new Database(file);
      for (const setting of cipher.settings) db.pragma(setting);
      db.pragma(`rekey = ${cipher.key}`);
      db.close();
    } else {
      const db = new Database(file);
      db.exec('VACUUM'); // as a rekey leaves the file
      db.close();
    }
    const db = open();
    db.pragma('journal_mode = WAL');
    const pages = db.pragma('page_count', { simple: true }) as number;
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    const read = db.prepare('SELECT sum(length(body)) FROM orders');
    const reads: number[] = [];
    for (let r = 0; r < 9; r++) {
      const start = performance.now();
      read.get();
      if (r >= 2) reads.push(performance.now() - start);
    }
    const writes: number[] = [];
    for (let r = 0; r < 3; r++) {
      const start = performance.now();
      // A new value in every row: every page of the table written, then checkpointed.
      db.exec(`UPDATE orders SET last_polled_at = ${r + 1}; PRAGMA wal_checkpoint;`);
      writes.push(performance.now() - start);
    }
    db.close();
    const perPage = (median(reads) * 1000) / ((pages * pageSize) / 4096);
    console.log(
      `${name.padEnd(54)} ${String(pageSize).padStart(5)} B pages, ${String(pages).padStart(6)} pages: ` +
        `read ${median(reads).toFixed(1).padStart(6)} ms = ${perPage.toFixed(2).padStart(5)} µs per 4 KB; ` +
        `write ${median(writes).toFixed(0).padStart(4)} ms`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
