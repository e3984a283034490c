import { type UpdatePhase, type UpdateSettings, type UpdatesView } from '@shared/update-views';
import type { Clock } from '../clock';
import type { Timers } from '../timers';
import { describeUpdateError } from './update-errors';
import type {
  DownloadProgressLike,
  UpdateInfoLike,
  UpdaterEvents,
  UpdaterPort,
} from './updater-port';

/** Checks while updates are on: at start-up (after FIRST_CHECK_DELAY_MS), then every 4 hours. */
export const CHECK_INTERVAL_MS = 4 * 60 * 60 * 1000;
/** The first check waits for the window and the session to be up. */
export const FIRST_CHECK_DELAY_MS = 10_000;

/** Why an update call was refused; the IPC layer turns it into a message for people. */
export class UpdateRefused extends Error {
  override readonly name = 'UpdateRefused';
  constructor(
    readonly reason: 'unsupported' | 'off' | 'not-ready' | 'batch-running',
    message: string,
  ) {
    super(message);
  }
}

export interface UpdateControllerOptions {
  /** null where there is no updater (the browser host, tests of the rest): settings only. */
  updater: UpdaterPort | null;
  settings: { read(): UpdateSettings; write(settings: UpdateSettings): void };
  /** True while a batch is sending orders (running: neither finished nor paused). */
  batchRunning(): boolean;
  /** Calls back when a batch may have started, paused, continued or finished. */
  onBatchChange(listener: () => void): () => void;
  /** Pushes the new view (the `update-status` event). */
  emit(view: UpdatesView): void;
  clock: Clock;
  timers: Timers;
  /** Removes secrets from a message before it is shown or logged. */
  redact?: (text: string) => string;
  log?: (line: string) => void;
  intervalMs?: number;
  firstCheckDelayMs?: number;
}

/**
 * The app's own updates with electron-updater, off by default. While on: a check at start-up and
 * then periodically; an update found is downloaded at once; a downloaded update is installed only
 * when the user chooses "Restart to update" or when the app quits, and never while a batch runs
 * (electron-updater's own install at quit stays off; `quitInstall` decides at quit). While off,
 * nothing is checked or downloaded, and a download under way is cancelled.
 */
export class UpdateController {
  private settings: UpdateSettings;
  private phase: UpdatePhase;
  private version: string | null = null;
  private percent: number | null = null;
  private message: string | null = null;
  private checkedAt: string | null = null;
  private batchRunning: boolean;
  private timer: unknown = null;
  /** Bumped when a download is cancelled: its late failure is not this download's. */
  private downloadGeneration = 0;
  private stopped = false;
  /** Bumped at every published change (UpdatesView.seq). */
  private seq = 0;
  private readonly unsubscribe: (() => void)[] = [];
  private readonly log: (line: string) => void;
  private readonly intervalMs: number;

  constructor(private readonly o: UpdateControllerOptions) {
    this.settings = o.settings.read();
    this.phase = this.settings.enabled ? 'idle' : 'off';
    this.batchRunning = o.batchRunning();
    this.log = o.log ?? (() => undefined);
    this.intervalMs = o.intervalMs ?? CHECK_INTERVAL_MS;
  }

  /** Takes the updater over and, when updates are on, schedules the start-up check. */
  start(): void {
    const { updater } = this.o;
    this.unsubscribe.push(this.o.onBatchChange(() => this.batchChanged()));
    if (!updater) return;
    updater.autoDownload = false;
    updater.autoInstallOnAppQuit = false;
    const listen = <E extends keyof UpdaterEvents>(event: E, listener: UpdaterEvents[E]) => {
      updater.on(event, listener);
      this.unsubscribe.push(() => updater.off(event, listener));
    };
    listen('checking-for-update', () => this.onChecking());
    listen('update-available', (info) => this.onAvailable(info));
    listen('update-not-available', () => this.onUpToDate());
    listen('download-progress', (progress) => this.onProgress(progress));
    listen('update-downloaded', (info) => this.onDownloaded(info));
    listen('error', (error) => this.fail(error));
    if (this.settings.enabled) {
      this.applyFeed();
      this.schedule(this.o.firstCheckDelayMs ?? FIRST_CHECK_DELAY_MS);
    }
  }

  stop(): void {
    this.stopped = true;
    this.clearTimer();
    for (const off of this.unsubscribe.splice(0)) off();
  }

  view(): UpdatesView {
    return {
      settings: this.settings,
      supported: this.o.updater !== null,
      phase: this.phase,
      version: this.version,
      percent: this.percent,
      message: this.message,
      checkedAt: this.checkedAt,
      batchRunning: this.batchRunning,
      intervalMinutes: Math.round(this.intervalMs / 60_000),
      seq: this.seq,
    };
  }

  /**
   * Saves the settings. Turning updates on (or changing the feed) checks at once; turning them
   * off stops checking and cancels a download under way.
   */
  configure(next: UpdateSettings): UpdatesView {
    const before = this.settings;
    this.o.settings.write(next);
    this.settings = next;
    const { updater } = this.o;
    if (!next.enabled) {
      this.clearTimer();
      if (before.enabled && updater && this.phase === 'downloading') this.cancelDownload();
      this.reset('off');
    } else if (!before.enabled || before.feedUrl !== next.feedUrl) {
      if (updater && this.phase === 'downloading') this.cancelDownload();
      this.reset('idle');
      if (updater) {
        this.applyFeed();
        void this.runCheck();
      }
    }
    this.log(`updates ${next.enabled ? `on, feed ${next.feedUrl}` : 'off'}`);
    this.publish();
    return this.view();
  }

  /**
   * "Check now". Refused where there is no updater, while updates are off, and while an update is
   * downloading or ready (it is installed first). Resolves when the check has answered; the
   * outcome is in the view (and its event), a failure included.
   */
  check(): Promise<void> {
    if (!this.o.updater)
      throw new UpdateRefused(
        'unsupported',
        'Updates apply to the installed desktop app; this window has no updater.',
      );
    if (!this.settings.enabled)
      throw new UpdateRefused('off', 'Updates are off: turn them on in Settings first.');
    return this.runCheck();
  }

  /** "Restart to update": refused unless an update is ready and no batch is running. */
  install(): void {
    const updater = this.o.updater;
    if (!updater || !this.settings.enabled || this.phase !== 'ready')
      throw new UpdateRefused('not-ready', 'No update is ready to install.');
    this.batchRunning = this.o.batchRunning();
    if (this.batchRunning) {
      this.publish();
      throw new UpdateRefused(
        'batch-running',
        'A batch is sending orders: the update is installed when it has finished or is paused.',
      );
    }
    this.log(`installing ${this.version ?? 'the update'} and restarting`);
    updater.quitAndInstall(false, true);
  }

  /**
   * At quit, before the store closes: the install to run once everything is closed, or null.
   * An update is installed at quit only while updates are on, it is ready, and no batch runs (a
   * batch left running continues at the next start; the update waits for a later quit).
   */
  quitInstall(): (() => void) | null {
    const updater = this.o.updater;
    if (!updater || !this.settings.enabled || this.phase !== 'ready') return null;
    if (this.o.batchRunning()) {
      this.log('an update is ready but a batch is running: not installed at this quit');
      return null;
    }
    return () => {
      this.log(`installing ${this.version ?? 'the update'} at quit`);
      updater.quitAndInstall(true, false);
    };
  }

  private async runCheck(): Promise<void> {
    const updater = this.o.updater;
    if (!updater || !this.settings.enabled || this.stopped) return;
    if (this.phase === 'downloading' || this.phase === 'ready' || this.phase === 'checking') return;
    this.phase = 'checking';
    this.message = null;
    this.publish();
    try {
      const result = await updater.checkForUpdates();
      if (result === null && this.phase === 'checking') {
        // electron-updater checks only in a packaged app.
        this.fail(
          new Error('Updates are checked only in the installed app; this copy is not packaged.'),
        );
      }
    } catch (error) {
      this.fail(error);
    }
  }

  private schedule(delayMs: number): void {
    this.clearTimer();
    if (this.stopped) return;
    this.timer = this.o.timers.setTimeout(() => {
      this.timer = null;
      if (!this.settings.enabled || this.stopped) return;
      void this.runCheck().finally(() => {
        if (this.settings.enabled) this.schedule(this.intervalMs);
      });
    }, delayMs);
  }

  private clearTimer(): void {
    if (this.timer !== null) this.o.timers.clearTimeout(this.timer);
    this.timer = null;
  }

  private applyFeed(): void {
    if (this.settings.feedUrl)
      this.o.updater?.setFeedURL({ provider: 'generic', url: this.settings.feedUrl });
  }

  private reset(phase: 'off' | 'idle'): void {
    this.phase = phase;
    this.version = null;
    this.percent = null;
    this.message = null;
  }

  /** Events of the updater count only while updates are on. */
  private get listening(): boolean {
    return this.settings.enabled && !this.stopped;
  }

  private onChecking(): void {
    if (!this.listening || this.phase === 'downloading' || this.phase === 'ready') return;
    this.phase = 'checking';
    this.publish();
  }

  private onUpToDate(): void {
    if (!this.listening) return;
    this.reset('idle');
    this.phase = 'up-to-date';
    this.checkedAt = new Date(this.o.clock.now()).toISOString();
    this.publish();
    if (this.timer === null) this.schedule(this.intervalMs);
  }

  private onAvailable(info: UpdateInfoLike): void {
    const updater = this.o.updater;
    if (!this.listening || !updater) return;
    this.checkedAt = new Date(this.o.clock.now()).toISOString();
    this.version = info.version;
    this.phase = 'downloading';
    this.percent = 0;
    this.message = null;
    this.log(`update ${info.version} available: downloading`);
    this.publish();
    const mine = this.downloadGeneration;
    updater.downloadUpdate().catch((error: unknown) => {
      if (mine === this.downloadGeneration) this.fail(error);
    });
  }

  private cancelDownload(): void {
    this.downloadGeneration++;
    this.o.updater?.cancelDownload();
    this.log('download cancelled');
  }

  private onProgress(progress: DownloadProgressLike): void {
    if (!this.listening || this.phase !== 'downloading') return;
    const percent = Math.max(0, Math.min(100, Math.floor(progress.percent)));
    if (percent === this.percent) return; // one event per whole percent
    this.percent = percent;
    this.publish();
  }

  private onDownloaded(info: UpdateInfoLike): void {
    if (!this.listening) return;
    this.phase = 'ready';
    this.version = info.version;
    this.percent = null;
    this.batchRunning = this.o.batchRunning();
    this.log(`update ${info.version} downloaded: ready to install`);
    this.publish();
  }

  private fail(error: unknown): void {
    if (!this.listening) return;
    // A download abandoned by turning updates off, or a failed install: the ready update stays.
    if (this.phase === 'ready') return;
    const raw = describeUpdateError(error);
    const message = this.o.redact ? this.o.redact(raw) : raw;
    this.phase = 'error';
    this.percent = null;
    this.message = message;
    this.log(`update failed: ${message}`);
    this.publish();
    if (this.timer === null) this.schedule(this.intervalMs);
  }

  private batchChanged(): void {
    const running = this.o.batchRunning();
    if (running === this.batchRunning) return;
    this.batchRunning = running;
    this.publish();
  }

  private publish(): void {
    this.seq++;
    if (!this.stopped) this.o.emit(this.view());
  }
}
