import { z } from 'zod';
import { jsonText, prepareCached } from '../db/rows';
import type { LocalStore } from './local-store';

/*
 * A note a connection store carries for the app until it has acted on it once (told the user,
 * written the activity entry): a row of the store's otherwise unused `settings` table. A note in
 * the file itself survives a crash between the event and the store's next open.
 */

/** Kept by the first start's encryption in each connection store it encrypted (startup.ts). */
export const ENCRYPTED_NOTE = 'store.encrypted';
export const EncryptedNote = z.object({ at: z.int() });
export type EncryptedNote = z.infer<typeof EncryptedNote>;

/** Leaves a note under `key` (replacing one there); the encryption's worker writes the same row. */
export function putStoreNote(store: LocalStore, key: string, note: unknown): void {
  prepareCached(
    store.db,
    `INSERT INTO settings (key, value) VALUES (?, ?)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
  ).run(key, JSON.stringify(note));
}

/**
 * The note under `key`, if the store has one: `act` is called with it, in one transaction with
 * its removal (so what `act` writes in this store and the removal commit together). A note that
 * no longer parses is removed unread.
 */
export function takeStoreNote<T>(
  store: LocalStore,
  key: string,
  schema: z.ZodType<T>,
  act: (note: T) => void,
): void {
  const row = prepareCached(store.db, 'SELECT value FROM settings WHERE key = ?').get(key) as
    { value: string } | undefined;
  if (!row) return;
  const note = jsonText(schema).safeParse(row.value);
  store.transaction(() => {
    if (note.success) act(note.data);
    prepareCached(store.db, 'DELETE FROM settings WHERE key = ?').run(key);
  });
}
