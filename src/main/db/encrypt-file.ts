import { closeSync, constants, fsyncSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { copyFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3-multiple-ciphers';
import { CIPHER_SETTINGS, rawKey, type StoreKey } from '@shared/store-cipher';
import { deleteStoreFiles, SIDE_FILES, syncFolder } from './store-files';

/**
 * A plain store file (from before encryption) encrypted where it is, by export and swap
 * (docs/architecture.md, "Encryption at rest"): checkpointed, copied to `<name>.encrypting.db`,
 * the copy encrypted and checked by a worker, then one rename puts it in place. That rename is
 * the commit point; a partial copy left by a crash is deleted at the next start
 * (settleEncryption). The steps: docs/decisions.md, "Encrypting a plain store".
 */

/** The steps, in order; a test may stop the process after any of them. */
export type EncryptStep = 'self-contained' | 'copied' | 'encrypted' | 'swapped';

export interface EncryptFileOptions {
  key: StoreKey;
  /** Bytes of work done out of the total, as it goes (about twice the file's size). */
  onProgress?(done: number, total: number): void;
  /** Called after each step, before the next (tests). */
  afterStep?(step: EncryptStep): void | Promise<void>;
  /** How often the copy's progress is read while the worker encrypts it; default 100 ms. */
  pollMs?: number;
  /**
   * A row written into the encrypted copy's `settings` table (if it has one) before the swap, so
   * that the file itself says it was encrypted (stores/store-notes.ts).
   */
  note?: { key: string; value: string };
}

/** Where the encrypted copy is made, beside the plain file. */
export const encryptingName = (file: string): string => file.replace(/(\.db)?$/, '.encrypting.db');

/** Before a store is opened: the copy of an encryption cut short is deleted (it is ours, partial). */
export function settleEncryption(file: string): void {
  deleteStoreFiles(encryptingName(file));
}

/** Encrypts the plain store at `file` in place (see above). Nothing else may have it open. */
export async function encryptStoreFile(file: string, options: EncryptFileOptions): Promise<void> {
  const copy = encryptingName(file);
  deleteStoreFiles(copy);
  makeSelfContained(file);
  await options.afterStep?.('self-contained');

  const size = statSync(file).size;
  const total = size * 2;
  options.onProgress?.(0, total);
  try {
    await copyFile(file, copy, constants.COPYFILE_EXCL);
    fsyncFile(copy);
    options.onProgress?.(size, total);
    await options.afterStep?.('copied');
    const job = { plain: file, copy, key: options.key, note: options.note ?? null };
    await encryptInWorker(job, options.pollMs ?? 100, (journal) =>
      options.onProgress?.(size + Math.min(journal, size), total),
    );
    fsyncFile(copy);
  } catch (error) {
    // The copy is ours and partial: it goes, and the room it took with it (a full disk is a
    // likely reason it failed).
    deleteStoreFiles(copy);
    throw error;
  }
  options.onProgress?.(total, total);
  await options.afterStep?.('encrypted');

  // The plain file is self-contained: a side file left beside it now would be read as the
  // encrypted file's own.
  for (const suffix of SIDE_FILES) rmSync(file + suffix, { force: true });
  renameSync(copy, file);
  syncFolder(dirname(file));
  await options.afterStep?.('swapped');
}

/** Checkpoints the write-ahead log into the file and leaves WAL mode: one file holds it all. */
function makeSelfContained(file: string): void {
  const db = new Database(file, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    db.pragma('journal_mode = DELETE');
  } finally {
    db.close();
  }
}

function fsyncFile(file: string): void {
  const fd = openSync(file, 'r+');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** The worker script: TypeScript run as it is from the sources, JavaScript beside the build. */
const WORKER = new URL(
  import.meta.url.endsWith('.ts') ? './encrypt-worker.ts' : './encrypt-worker.js',
  import.meta.url,
);

interface EncryptJob {
  plain: string;
  copy: string;
  key: StoreKey;
  note: { key: string; value: string } | null;
}

type WorkerAnswer = { ok: true } | { ok: false; code: string | null; message: string };

/**
 * Runs encrypt-worker.ts on the copy. Its rekey writes each page's plain version to the copy's
 * rollback journal first, so the journal's growth is the progress.
 */
function encryptInWorker(
  { plain, copy, key, note }: EncryptJob,
  pollMs: number,
  progress: (journalBytes: number) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, {
      workerData: { copy, plain, settings: [...CIPHER_SETTINGS], rawKey: rawKey(key), note },
    });
    const poll = setInterval(() => {
      try {
        progress(statSync(`${copy}-journal`).size);
      } catch {
        // no journal yet, or already gone
      }
    }, pollMs);
    let answer: WorkerAnswer | null = null;
    worker.once('message', (message: WorkerAnswer) => {
      answer = message;
    });
    worker.once('error', (error) => {
      answer ??= { ok: false, code: null, message: error.message };
    });
    worker.once('exit', (code) => {
      clearInterval(poll);
      const result: WorkerAnswer = answer ?? {
        ok: false,
        code: null,
        message: `the encryption stopped (exit code ${code})`,
      };
      if (result.ok) resolve();
      else
        reject(
          Object.assign(new Error(`Could not encrypt ${plain}: ${result.message}`), {
            ...(result.code ? { code: result.code } : {}),
          }),
        );
    });
  });
}
