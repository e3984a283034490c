import { describe, expect, it } from 'vitest';
import {
  CHECK_INTERVAL_MS,
  FIRST_CHECK_DELAY_MS,
  UpdateController,
  UpdateRefused,
} from '@main/updates/update-controller';
import { DEFAULT_UPDATE_SETTINGS, UpdatesView, type UpdateSettings } from '@shared/update-views';
import { FakeUpdater } from '@test/support/fake-updater';

/** Timers the test fires by hand: `advance(ms)` runs what is due, in order. */
function manualTimers() {
  let now = 0;
  let nextId = 1;
  const pending = new Map<number, { at: number; fn: () => void }>();
  return {
    setTimeout: (fn: () => void, ms: number) => {
      const id = nextId++;
      pending.set(id, { at: now + ms, fn });
      return id;
    },
    clearTimeout: (id: unknown) => void pending.delete(id as number),
    async advance(ms: number) {
      const end = now + ms;
      for (;;) {
        const due = [...pending.entries()]
          .filter(([, t]) => t.at <= end)
          .sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        pending.delete(due[0]);
        now = due[1].at;
        due[1].fn();
        await flush();
      }
      now = end;
    },
    get pendingCount() {
      return pending.size;
    },
  };
}

const flush = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

const FEED = 'https://updates.example.com/order-desk/';

function setup(
  options: { settings?: UpdateSettings; updater?: FakeUpdater | null; batch?: boolean } = {},
) {
  const updater = options.updater === undefined ? new FakeUpdater() : options.updater;
  let stored = options.settings ?? DEFAULT_UPDATE_SETTINGS;
  let batchRunning = options.batch ?? false;
  const batchListeners = new Set<() => void>();
  const views: UpdatesView[] = [];
  const timers = manualTimers();
  const controller = new UpdateController({
    updater,
    settings: {
      read: () => stored,
      write: (s) => {
        stored = s;
      },
    },
    batchRunning: () => batchRunning,
    onBatchChange: (listener) => {
      batchListeners.add(listener);
      return () => batchListeners.delete(listener);
    },
    emit: (view) => views.push(UpdatesView.parse(view)),
    clock: { now: () => Date.parse('2026-11-25T10:00:00Z') },
    timers,
    redact: (text) => text.replaceAll('s3cret-token', '[redacted]'),
  });
  return {
    controller,
    updater: updater!,
    timers,
    views,
    stored: () => stored,
    setBatch(running: boolean) {
      batchRunning = running;
      for (const l of batchListeners) l();
    },
    phases: () => views.map((v) => v.phase),
  };
}

const ON: UpdateSettings = { enabled: true, feedUrl: FEED };

describe('updates controller', () => {
  it('checks and downloads nothing while off, however long it runs', async () => {
    const t = setup();
    t.controller.start();
    expect(t.updater.autoDownload).toBe(false);
    expect(t.updater.autoInstallOnAppQuit).toBe(false);
    await t.timers.advance(10 * CHECK_INTERVAL_MS);
    expect(t.updater.calls).toEqual([]);
    expect(t.controller.view()).toMatchObject({ phase: 'off', supported: true });
    expect(() => t.controller.check()).toThrow(UpdateRefused);
    expect(() => t.controller.install()).toThrow(/No update is ready/);
    expect(t.updater.calls).toEqual([]);
  });

  it('checks at start-up when on, then every interval; an update found is downloaded and becomes ready', async () => {
    const t = setup({ settings: ON });
    t.controller.start();
    expect(t.updater.calls).toEqual([`setFeedURL ${FEED}`]);
    await t.timers.advance(FIRST_CHECK_DELAY_MS - 1);
    expect(t.updater.calls).not.toContain('checkForUpdates');
    await t.timers.advance(1);
    expect(t.updater.calls.filter((c) => c === 'checkForUpdates')).toHaveLength(1);
    expect(t.controller.view()).toMatchObject({
      phase: 'up-to-date',
      checkedAt: '2026-11-25T10:00:00.000Z',
    });
    await t.timers.advance(CHECK_INTERVAL_MS);
    await t.timers.advance(CHECK_INTERVAL_MS);
    expect(t.updater.calls.filter((c) => c === 'checkForUpdates')).toHaveLength(3);

    t.updater.nextCheck = { version: '0.2.0' };
    await t.timers.advance(CHECK_INTERVAL_MS);
    expect(t.updater.downloading).toBe(true);
    expect(t.controller.view()).toMatchObject({
      phase: 'downloading',
      version: '0.2.0',
      percent: 0,
    });
    t.updater.progress(41.7);
    t.updater.progress(41.9); // the same whole percent: no new event
    expect(t.views.at(-1)).toMatchObject({ phase: 'downloading', percent: 41 });
    expect(t.views.filter((v) => v.percent === 41)).toHaveLength(1);
    t.updater.finishDownload();
    expect(t.controller.view()).toMatchObject({ phase: 'ready', version: '0.2.0', percent: null });
    // Ready: no further check until it is installed; nothing installs by itself.
    await t.timers.advance(3 * CHECK_INTERVAL_MS);
    expect(t.updater.calls.filter((c) => c === 'checkForUpdates')).toHaveLength(4);
    expect(t.updater.calls.some((c) => c.startsWith('quitAndInstall'))).toBe(false);
    expect(t.phases()).toEqual(
      expect.arrayContaining(['checking', 'up-to-date', 'downloading', 'ready']),
    );
  });

  it('installs only when the user restarts, and never while a batch runs', async () => {
    const t = setup({ settings: ON });
    t.controller.start();
    t.updater.nextCheck = { version: '0.2.0' };
    await t.controller.check();
    t.updater.finishDownload();
    t.setBatch(true);
    expect(t.views.at(-1)).toMatchObject({ phase: 'ready', batchRunning: true });
    expect(() => t.controller.install()).toThrow(/batch is sending orders/);
    expect(t.updater.calls.some((c) => c.startsWith('quitAndInstall'))).toBe(false);
    // Paused or finished: the install may go ahead.
    t.setBatch(false);
    expect(t.views.at(-1)).toMatchObject({ phase: 'ready', batchRunning: false });
    t.controller.install();
    expect(t.updater.calls.at(-1)).toBe('quitAndInstall silent=false restart=true');
  });

  it('installs at quit only with an update ready, updates on and no batch running', async () => {
    const ready = async (batch: boolean) => {
      const t = setup({ settings: ON, batch });
      t.controller.start();
      t.updater.nextCheck = { version: '0.3.0' };
      await t.controller.check();
      t.updater.finishDownload();
      return t;
    };
    const idle = await ready(false);
    const install = idle.controller.quitInstall();
    expect(install).not.toBeNull();
    expect(idle.updater.calls.some((c) => c.startsWith('quitAndInstall'))).toBe(false);
    install!();
    expect(idle.updater.calls.at(-1)).toBe('quitAndInstall silent=true restart=false');

    const busy = await ready(true);
    expect(busy.controller.quitInstall()).toBeNull();
    expect(busy.updater.autoInstallOnAppQuit).toBe(false);

    const off = await ready(false);
    off.controller.configure({ enabled: false, feedUrl: FEED });
    expect(off.controller.quitInstall()).toBeNull();

    const nothing = setup({ settings: ON });
    nothing.controller.start();
    expect(nothing.controller.quitInstall()).toBeNull();
  });

  it('turning updates on checks at once with the feed URL; off cancels a download and stops checking', async () => {
    const t = setup();
    t.controller.start();
    t.updater.nextCheck = { version: '0.2.0' };
    const view = t.controller.configure(ON);
    expect(t.stored()).toEqual(ON);
    expect(view.settings).toEqual(ON);
    await flush();
    expect(t.updater.calls.slice(0, 2)).toEqual([`setFeedURL ${FEED}`, 'checkForUpdates']);
    expect(t.updater.downloading).toBe(true);

    t.controller.configure({ enabled: false, feedUrl: FEED });
    await flush();
    expect(t.updater.calls).toContain('cancelDownload');
    expect(t.controller.view()).toMatchObject({ phase: 'off', version: null, message: null });
    const calls = t.updater.calls.length;
    await t.timers.advance(5 * CHECK_INTERVAL_MS);
    expect(t.updater.calls.length).toBe(calls);
    expect(t.timers.pendingCount).toBe(0);

    // A new feed URL while on: set and checked at once.
    t.updater.nextCheck = 'up-to-date';
    t.controller.configure(ON);
    await flush();
    t.controller.configure({ enabled: true, feedUrl: 'https://mirror.example.com/od/' });
    await flush();
    expect(t.updater.calls.slice(-2)).toEqual([
      'setFeedURL https://mirror.example.com/od/',
      'checkForUpdates',
    ]);
    expect(t.controller.view().phase).toBe('up-to-date');
  });

  it('says why a check or a download failed, in words and without secrets, and tries again later', async () => {
    const t = setup({ settings: ON });
    t.controller.start();
    const http404 = Object.assign(
      new Error(
        'HttpError: 404 \n"method: GET url: https://updates.example.com/latest.yml"\nat stack',
      ),
      { code: 'ERR_UPDATER_CHANNEL_FILE_NOT_FOUND' },
    );
    t.updater.nextCheck = http404;
    await t.controller.check();
    expect(t.controller.view()).toMatchObject({
      phase: 'error',
      message: expect.stringMatching(/no update information at this address.*check the feed URL/),
    });
    expect(t.controller.view().message).not.toMatch(/stack/);

    t.updater.nextCheck = new Error('connect ECONNREFUSED 127.0.0.1:9');
    await t.controller.check();
    expect(t.controller.view().message).toBe(
      'The update server could not be reached. Order Desk tries again later.',
    );

    t.updater.nextCheck = new Error('Unexpected thing with s3cret-token\n    at x (y.js:1)');
    await t.controller.check();
    expect(t.controller.view().message).toBe('The update failed: Unexpected thing with [redacted]');

    // A failed download.
    t.updater.nextCheck = { version: '0.2.0' };
    await t.controller.check();
    t.updater.failDownload(new Error('sha512 checksum mismatch, expected abc, got def'));
    await flush();
    expect(t.controller.view()).toMatchObject({
      phase: 'error',
      message: 'The downloaded update did not match its checksum and was discarded.',
      percent: null,
    });
    // ...and the next periodic check runs.
    t.updater.nextCheck = 'up-to-date';
    await t.timers.advance(CHECK_INTERVAL_MS);
    expect(t.controller.view().phase).toBe('up-to-date');

    // An app that is not packaged: electron-updater answers null.
    t.updater.nextCheck = null;
    await t.controller.check();
    expect(t.controller.view()).toMatchObject({
      phase: 'error',
      message: expect.stringMatching(/only in the installed app/),
    });
  });

  it('without an updater (the browser host) keeps the settings and refuses to check', () => {
    const t = setup({ updater: null });
    t.controller.start();
    const view = t.controller.configure(ON);
    expect(view).toMatchObject({ supported: false, settings: ON, phase: 'idle' });
    expect(t.stored()).toEqual(ON);
    expect(() => t.controller.check()).toThrow(/installed desktop app/);
    expect(() => t.controller.install()).toThrow(/No update is ready/);
    expect(t.controller.quitInstall()).toBeNull();
  });

  it('stops listening to the updater and the batches when stopped', async () => {
    const t = setup({ settings: ON });
    t.controller.start();
    expect(t.updater.listenerCount()).toBe(6);
    t.controller.stop();
    expect(t.updater.listenerCount()).toBe(0);
    expect(t.timers.pendingCount).toBe(0);
    const before = t.views.length;
    t.setBatch(true);
    expect(t.views.length).toBe(before);
  });
});
