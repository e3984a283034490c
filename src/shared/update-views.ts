import { z } from 'zod';

/**
 * The app's own updates as the window sees them (the `updates.*` calls and the `update-status`
 * event): the settings (off by default) and what the updater is doing.
 */

/** Hosts a feed may be served from over plain http: this computer only (a test server). */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Where new versions are published (electron-updater's generic provider reads `latest.yml` and
 * the installers there): https, or http on this computer for testing. No user name or password
 * (the feed is public, and the URL is shown and logged), no #fragment.
 */
export const UpdateFeedUrl = z
  .string()
  .trim()
  .min(1, { error: 'required', abort: true })
  .max(2000, { error: 'at most 2000 characters', abort: true })
  .superRefine((text, ctx) => {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      ctx.addIssue({
        code: 'custom',
        message: 'an https URL such as https://updates.example.com/',
      });
      return;
    }
    const secure = url.protocol === 'https:';
    const loopback = url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
    if (!secure && !loopback)
      ctx.addIssue({
        code: 'custom',
        message: 'an https URL (plain http only for 127.0.0.1, when testing)',
      });
    else if (url.username || url.password)
      ctx.addIssue({
        code: 'custom',
        message: 'no user name or password in the address: the update feed is public',
      });
    else if (url.hash) ctx.addIssue({ code: 'custom', message: 'no #fragment in the address' });
  });

/** Off by default; the feed URL is required to turn updates on. */
export const UpdateSettings = z
  .object({
    enabled: z.boolean(),
    feedUrl: UpdateFeedUrl.nullable(),
  })
  .superRefine((settings, ctx) => {
    if (settings.enabled && settings.feedUrl === null)
      ctx.addIssue({
        code: 'custom',
        path: ['feedUrl'],
        message: 'required to turn updates on',
      });
  });
export type UpdateSettings = z.infer<typeof UpdateSettings>;

export const DEFAULT_UPDATE_SETTINGS: UpdateSettings = { enabled: false, feedUrl: null };

/**
 * off: updates are turned off. idle: on, nothing checked yet. checking. up-to-date.
 * available: a newer version was found (its download starts at once). downloading.
 * ready: downloaded, installed at "Restart to update" or when the app quits, never while a batch
 * runs. error: the last check or download failed (message says why).
 */
export const UpdatePhase = z.enum([
  'off',
  'idle',
  'checking',
  'up-to-date',
  'available',
  'downloading',
  'ready',
  'error',
]);
export type UpdatePhase = z.infer<typeof UpdatePhase>;

export const UpdatesView = z.object({
  settings: UpdateSettings,
  /** False where there is no updater (the browser host): only the settings are kept. */
  supported: z.boolean(),
  phase: UpdatePhase,
  /** The version found, being downloaded or ready; null otherwise. */
  version: z.string().max(100).nullable(),
  /** Download progress, 0 to 100, while downloading. */
  percent: z.number().min(0).max(100).nullable(),
  /** Why the last check or download failed, for people (phase error). */
  message: z.string().max(500).nullable(),
  /** When the feed last answered (ISO 8601). */
  checkedAt: z.iso.datetime({ offset: true }).nullable(),
  /** A batch is sending orders: an update waits until it is finished or paused. */
  batchRunning: z.boolean(),
  /** How often a check runs while updates are on, in minutes. */
  intervalMinutes: z.int().min(1),
  /**
   * Grows with every change: an answer and an event may arrive in either order, and the window
   * keeps the view with the highest seq.
   */
  seq: z.int().min(0),
});
export type UpdatesView = z.infer<typeof UpdatesView>;
