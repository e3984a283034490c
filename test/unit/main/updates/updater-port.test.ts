import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { electronUpdaterPort, type ElectronUpdaterModule } from '@main/updates/updater-port';

/** electron-updater's module as far as the adapter touches it. */
function fakeModule() {
  const calls: unknown[][] = [];
  const tokens: { cancelled: boolean; cancel(): void }[] = [];
  class CancellationToken {
    cancelled = false;
    constructor() {
      tokens.push(this);
    }
    cancel() {
      this.cancelled = true;
    }
  }
  const emitter = new EventEmitter();
  const autoUpdater = Object.assign(emitter, {
    autoDownload: true,
    autoInstallOnAppQuit: true,
    setFeedURL: (options: unknown) => void calls.push(['setFeedURL', options]),
    checkForUpdates: async () => {
      calls.push(['checkForUpdates']);
      return null;
    },
    downloadUpdate: async (token?: unknown) => {
      calls.push(['downloadUpdate', token]);
      return [];
    },
    quitAndInstall: (isSilent?: boolean, isForceRunAfter?: boolean) =>
      void calls.push(['quitAndInstall', isSilent, isForceRunAfter]),
  });
  return { module: { autoUpdater, CancellationToken }, calls, tokens, emitter };
}

describe('electron-updater port', () => {
  it('forwards the flags, calls and events, and cancels a download with its own token', async () => {
    const { module, calls, tokens, emitter } = fakeModule();
    // Node's EventEmitter types its listeners with any; electron-updater's are typed per event.
    const port = electronUpdaterPort(module as unknown as ElectronUpdaterModule);
    port.autoDownload = false;
    port.autoInstallOnAppQuit = false;
    expect(module.autoUpdater.autoDownload).toBe(false);
    expect(module.autoUpdater.autoInstallOnAppQuit).toBe(false);
    expect(port.autoInstallOnAppQuit).toBe(false);

    port.setFeedURL({ provider: 'generic', url: 'https://u.example.com/' });
    expect(await port.checkForUpdates()).toBeNull();
    await port.downloadUpdate();
    expect(calls[2]).toEqual(['downloadUpdate', tokens[0]]);
    port.cancelDownload();
    expect(tokens[0]!.cancelled).toBe(true);
    port.cancelDownload(); // nothing under way: nothing to cancel
    port.quitAndInstall(true, false);
    expect(calls.at(-1)).toEqual(['quitAndInstall', true, false]);

    const seen: string[] = [];
    const listener = (info: { version: string }) => seen.push(info.version);
    port.on('update-available', listener);
    emitter.emit('update-available', { version: '1.2.3' });
    port.off('update-available', listener);
    emitter.emit('update-available', { version: '9.9.9' });
    expect(seen).toEqual(['1.2.3']);
  });
});
