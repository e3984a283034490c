/**
 * The few members of electron-updater's `autoUpdater` the app uses. The controller works on this
 * port, so it runs in plain Node with a fake in tests; `electronUpdaterPort` adapts the real one
 * in the Electron main process.
 */

export interface UpdateInfoLike {
  version: string;
}

export interface DownloadProgressLike {
  /** 0 to 100. */
  percent: number;
}

export interface UpdaterEvents {
  'checking-for-update': () => void;
  'update-available': (info: UpdateInfoLike) => void;
  'update-not-available': (info: UpdateInfoLike) => void;
  'download-progress': (progress: DownloadProgressLike) => void;
  'update-downloaded': (info: UpdateInfoLike) => void;
  error: (error: Error) => void;
}

export type UpdaterEventName = keyof UpdaterEvents;

export interface UpdaterPort {
  /** The controller downloads itself, only while updates are on: always false. */
  autoDownload: boolean;
  /** The controller installs at quit itself, never while a batch runs: always false. */
  autoInstallOnAppQuit: boolean;
  setFeedURL(options: { provider: 'generic'; url: string }): void;
  /** Resolves null when the updater is inactive (an app that is not packaged). */
  checkForUpdates(): Promise<unknown>;
  /** Downloads the update found by the last check; `cancel()` abandons it. */
  downloadUpdate(): Promise<unknown>;
  cancelDownload(): void;
  /** Quits the app and runs the installer (silently, without a restart, at quit). */
  quitAndInstall(isSilent: boolean, isForceRunAfter: boolean): void;
  on<E extends UpdaterEventName>(event: E, listener: UpdaterEvents[E]): void;
  off<E extends UpdaterEventName>(event: E, listener: UpdaterEvents[E]): void;
}

/** What electron-updater's module gives (its `autoUpdater` and its CancellationToken class). */
export interface ElectronUpdaterModule {
  autoUpdater: {
    autoDownload: boolean;
    autoInstallOnAppQuit: boolean;
    setFeedURL(options: { provider: 'generic'; url: string }): void;
    checkForUpdates(): Promise<unknown>;
    downloadUpdate(cancellationToken?: never): Promise<unknown>;
    quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean): void;
    on(event: string, listener: (...args: never[]) => void): unknown;
    off(event: string, listener: (...args: never[]) => void): unknown;
  };
  CancellationToken: new () => { cancel(): void };
}

/** The real updater as the port (the Electron main process's one line of wiring). */
export function electronUpdaterPort(module: ElectronUpdaterModule): UpdaterPort {
  const updater = module.autoUpdater;
  let token: { cancel(): void } | null = null;
  return {
    get autoDownload() {
      return updater.autoDownload;
    },
    set autoDownload(value) {
      updater.autoDownload = value;
    },
    get autoInstallOnAppQuit() {
      return updater.autoInstallOnAppQuit;
    },
    set autoInstallOnAppQuit(value) {
      updater.autoInstallOnAppQuit = value;
    },
    setFeedURL: (options) => updater.setFeedURL(options),
    checkForUpdates: () => updater.checkForUpdates(),
    downloadUpdate: () => {
      token = new module.CancellationToken();
      return updater.downloadUpdate(token as never);
    },
    cancelDownload: () => {
      token?.cancel();
      token = null;
    },
    quitAndInstall: (isSilent, isForceRunAfter) =>
      updater.quitAndInstall(isSilent, isForceRunAfter),
    on: (event, listener) => void updater.on(event, listener as (...args: never[]) => void),
    off: (event, listener) => void updater.off(event, listener as (...args: never[]) => void),
  };
}
