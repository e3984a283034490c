import type { UpdaterEventName, UpdaterEvents, UpdaterPort } from '@main/updates/updater-port';

/**
 * electron-updater's autoUpdater as the controller uses it, driven by the test: a check answers
 * what `nextCheck` says (and emits the events the real one emits), a download emits its progress
 * and finishes when the test calls finishDownload.
 */
export class FakeUpdater implements UpdaterPort {
  autoDownload = true;
  autoInstallOnAppQuit = true;
  readonly calls: string[] = [];
  feedUrl: string | null = null;
  /** What the next checks find: a version, nothing new, a failure, or null (not packaged). */
  nextCheck: { version: string } | 'up-to-date' | Error | null = 'up-to-date';
  private readonly listeners = new Map<UpdaterEventName, Set<(arg: never) => void>>();
  private download: { resolve(): void; reject(e: Error): void; version: string } | null = null;
  private lastFound: string | null = null;

  setFeedURL(options: { provider: 'generic'; url: string }): void {
    this.calls.push(`setFeedURL ${options.url}`);
    this.feedUrl = options.url;
  }

  async checkForUpdates(): Promise<unknown> {
    this.calls.push('checkForUpdates');
    const next = this.nextCheck;
    if (next === null) return null;
    this.emit('checking-for-update');
    await Promise.resolve();
    if (next instanceof Error) {
      this.emit('error', next);
      throw next;
    }
    if (next === 'up-to-date') {
      this.emit('update-not-available', { version: '0.1.0' });
      return { isUpdateAvailable: false };
    }
    this.lastFound = next.version;
    this.emit('update-available', { version: next.version });
    return { isUpdateAvailable: true };
  }

  downloadUpdate(): Promise<unknown> {
    this.calls.push('downloadUpdate');
    const version = this.lastFound ?? '?';
    return new Promise<unknown>((resolve, reject) => {
      this.download = { resolve: () => resolve([]), reject, version };
    });
  }

  get downloading(): boolean {
    return this.download !== null;
  }

  progress(percent: number): void {
    this.emit('download-progress', { percent });
  }

  finishDownload(): void {
    const d = this.download;
    if (!d) throw new Error('no download under way');
    this.download = null;
    this.emit('update-downloaded', { version: d.version });
    d.resolve();
  }

  failDownload(error: Error): void {
    const d = this.download;
    if (!d) throw new Error('no download under way');
    this.download = null;
    this.emit('error', error);
    d.reject(error);
  }

  cancelDownload(): void {
    this.calls.push('cancelDownload');
    const d = this.download;
    this.download = null;
    // electron-updater emits update-cancelled (not error) and rejects the download's promise.
    if (d) d.reject(new Error('cancelled'));
  }

  quitAndInstall(isSilent: boolean, isForceRunAfter: boolean): void {
    this.calls.push(`quitAndInstall silent=${isSilent} restart=${isForceRunAfter}`);
  }

  on<E extends UpdaterEventName>(event: E, listener: UpdaterEvents[E]): void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener as (arg: never) => void);
  }

  off<E extends UpdaterEventName>(event: E, listener: UpdaterEvents[E]): void {
    this.listeners.get(event)?.delete(listener as (arg: never) => void);
  }

  listenerCount(): number {
    return [...this.listeners.values()].reduce((n, s) => n + s.size, 0);
  }

  private emit(event: UpdaterEventName, arg?: unknown): void {
    for (const listener of this.listeners.get(event) ?? []) (listener as (a: unknown) => void)(arg);
  }
}
