import type { z } from 'zod';
import type { Db } from './db';
import { jsonText, prepareCached } from './rows';

/** Keys of the app's non-secret settings. Secrets never go here (they live in the keychain). */
export const SETTING_KEYS = {
  theme: 'ui.theme',
  pollerBudget: 'poller.requestsPerMinute',
  bulkConcurrency: 'bulk.concurrency',
  /** Desktop notifications (toasts in the browser host): boolean, default true. */
  notifications: 'ui.notifications',
  /** The screen shown first after connecting: StartScreen, default 'dashboard'. */
  startScreen: 'ui.startScreen',
  /** The protocol list's columns shown: ProtocolColumn[], default all. */
  protocolColumns: 'ui.protocolColumns',
  /** The app's own updates: { enabled, feedUrl } (UpdateSettings), default off. */
  updates: 'app.updates',
  /** Practice mode on the built-in sandbox (its controls in the app): boolean, default off. */
  practice: 'practice.enabled',
  /** This data folder's desk id for the activity record: a random id made once. */
  deskId: 'desk.id',
  /** The people who share this desk (StaffList), default none. */
  staff: 'desk.staff',
  /** Who of them is at the desk now: a name of the list, or null. */
  atDesk: 'desk.atDesk',
  /** Years the activity record is kept: an integer, default 6 (HIPAA's six years). */
  activityRetention: 'activity.retentionYears',
} as const;

/**
 * Non-secret settings as JSON values. A value is parsed with the caller's schema on every read;
 * one that is absent or no longer matches the schema (written by another version) reads as the
 * fallback, since a preference has a sensible default and must never stop the app.
 */
export class SettingsRepo {
  constructor(private readonly db: Db) {}

  get<S extends z.ZodType>(key: string, schema: S, fallback: z.output<S>): z.output<S> {
    const row = prepareCached(this.db, 'SELECT value FROM settings WHERE key = ?').get(key) as
      { value: string } | undefined;
    if (!row) return fallback;
    const parsed = jsonText(schema).safeParse(row.value);
    return parsed.success ? parsed.data : fallback;
  }

  set(key: string, value: unknown): void {
    if (value === undefined)
      throw new TypeError(`Setting ${key}: undefined is not a value; use delete().`);
    prepareCached(
      this.db,
      'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    ).run(key, JSON.stringify(value));
  }

  delete(key: string): boolean {
    return prepareCached(this.db, 'DELETE FROM settings WHERE key = ?').run(key).changes === 1;
  }
}
