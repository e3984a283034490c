// @ts-check
/**
 * The layers of src/main, bottom to top (docs/architecture.md, "Layers"): a module imports only
 * from its own layer and the layers below it, type-only imports included. eslint.config.js makes
 * one import-x/no-restricted-paths zone per layer from this list; paths are from src/main.
 * Within a layer, folders must not import each other in a circle (import-x/no-cycle sees files).
 */
export const mainLayers = [
  {
    name: 'platform',
    holds: 'clock, timers, logging, the core event bus, CSV text, the API client, the updater',
    paths: [
      'clock.ts',
      'timers.ts',
      'logging.ts',
      'core-event-bus.ts',
      'csv-text.ts',
      'api',
      'updates',
    ],
  },
  {
    name: 'window',
    holds: "Electron's window, web contents, app protocol, menu and download guards",
    paths: [
      'app-protocol.ts',
      'renderer-location.ts',
      'window-policy.ts',
      'download-policy.ts',
      'session-policy.ts',
      'contents-guard.ts',
      'menu-template.ts',
      'pdf-save.ts',
      'profile-location.ts',
    ],
  },
  {
    name: 'database',
    holds: 'the SQLite plumbing: open, cipher, migrations, recovery, change and fault watching',
    paths: ['db', 'storage-watch.ts'],
  },
  {
    name: 'records',
    holds: 'the activity record, the catalog mirror, saved connections and their secrets',
    paths: ['activity', 'catalog', 'connections', 'embedded-sandbox.ts'],
  },
  { name: 'jobs', holds: 'the job queue and its runner, whatever the job', paths: ['jobs'] },
  {
    name: 'protocols',
    holds: 'protocols: model, repository, search, the patient ID rule, their change jobs',
    paths: ['protocols'],
  },
  {
    name: 'orders',
    holds: "the orders mirror, its poller, an order's request, the order job",
    paths: ['orders'],
  },
  {
    name: 'batches',
    holds: 'sending orders: batches, review, duplicate checks, the bulk submitter',
    paths: ['bulk'],
  },
  {
    name: 'stores',
    holds: 'the app store and each connection store with every repository on it',
    paths: ['stores'],
  },
  {
    name: 'features',
    holds:
      'sync, patients, the palette, the dashboard, protocol CSV, notices, presence: over a whole store',
    paths: ['sync', 'patients', 'palette', 'dashboard', 'csv', 'notices.ts', 'presence.ts'],
  },
  {
    name: 'session',
    holds: 'the active connection and its session, the app core, startup, practice mode',
    paths: [
      'connection-session.ts',
      'connection-manager.ts',
      'active-connection.ts',
      'practice.ts',
      'core.ts',
      'startup.ts',
    ],
  },
  { name: 'ipc', holds: 'the IPC handlers and the views they send', paths: ['ipc'] },
  {
    name: 'shell',
    holds: 'the Electron entry and the browser host',
    paths: ['index.ts', 'browser-host'],
  },
];
