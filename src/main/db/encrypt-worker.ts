// Encrypts a plain copy of a store in place (PRAGMA rekey), off the main thread, then checks it:
// sound, and every table holding as many rows as in the plain file; then writes the caller's note
// into it. Run by encrypt-file.ts.
// Node runs this file as it is (type stripping), and electron-vite builds it beside main: it
// imports nothing of the app's.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3-multiple-ciphers';

interface Job {
  /** The plain copy, encrypted here in place. */
  copy: string;
  /** The plain file it was copied from, read to compare. */
  plain: string;
  settings: string[];
  rawKey: string;
  /** A row for the copy's `settings` table, once it is checked (when it has that table). */
  note: { key: string; value: string } | null;
}
type Db = InstanceType<typeof Database>;

const job = workerData as Job;

function rowCounts(db: Db): Record<string, number> {
  const tables = db
    .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
    .pluck()
    .all() as string[];
  return Object.fromEntries(
    tables.map((name) => [
      name,
      db
        .prepare(`SELECT count(*) FROM "${name.replaceAll('"', '""')}"`)
        .pluck()
        .get() as number,
    ]),
  );
}

function open(file: string, key: boolean): Db {
  const db = new Database(file, { fileMustExist: true });
  for (const setting of job.settings) db.pragma(setting);
  if (key) db.pragma(`key = ${job.rawKey}`);
  // The rekey's VACUUM builds the new file in a temporary database: in memory, never a plain
  // temporary file on disk.
  db.pragma('temp_store = MEMORY');
  return db;
}

/** Fails when SQLite's quick_check finds problems; a damaged plain file fails as SQLITE_CORRUPT. */
function quickCheck(db: Db, what: string, code: string | null): void {
  const rows = db.pragma('quick_check(10)') as { quick_check: string }[];
  if (rows.length === 1 && rows[0]?.quick_check === 'ok') return;
  const error = new Error(`${what} is damaged: ${rows[0]?.quick_check ?? 'no answer'}`);
  throw code ? Object.assign(error, { code }) : error;
}

try {
  const source = new Database(job.plain, { readonly: true, fileMustExist: true });
  try {
    quickCheck(source, 'the plain file', 'SQLITE_CORRUPT');
  } finally {
    source.close();
  }
  const copy = open(job.copy, false);
  try {
    copy.pragma(`rekey = ${job.rawKey}`);
  } finally {
    copy.close();
  }
  const encrypted = open(job.copy, true);
  const plain = new Database(job.plain, { readonly: true, fileMustExist: true });
  try {
    quickCheck(encrypted, 'the encrypted copy', null);
    const want = JSON.stringify(rowCounts(plain));
    const got = JSON.stringify(rowCounts(encrypted));
    if (want !== got)
      throw new Error(`the encrypted copy differs from the plain file (rows ${got}, not ${want})`);
    if (
      encrypted.pragma('user_version', { simple: true }) !==
      plain.pragma('user_version', { simple: true })
    )
      throw new Error('the encrypted copy has another schema version');
    const hasSettings = encrypted
      .prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'settings'")
      .get();
    if (job.note && hasSettings)
      encrypted
        .prepare(
          `INSERT INTO settings (key, value) VALUES (?, ?)
           ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
        )
        .run(job.note.key, job.note.value);
  } finally {
    encrypted.close();
    plain.close();
  }
  parentPort?.postMessage({ ok: true });
} catch (error) {
  const e = error as { code?: unknown; message?: unknown };
  parentPort?.postMessage({
    ok: false,
    code: typeof e.code === 'string' ? e.code : null,
    message: typeof e.message === 'string' ? e.message : String(error),
  });
}
