import { app, BrowserWindow, ipcMain, shell } from 'electron';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Core } from './core';
import { KeytarCredentialStore } from './credentials/keychain';
import { createFileLogger, type FileLogger } from './logging';

const here = fileURLToPath(new URL('.', import.meta.url));
let core: Core | null = null;
let log: FileLogger | null = null;

function createWindow(): BrowserWindow {
  const win = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 960,
    minHeight: 600,
    title: 'Order Desk',
    show: false,
    webPreferences: {
      preload: join(here, '../preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
    },
  });
  win.once('ready-to-show', () => win.show());
  win.webContents.setWindowOpenHandler(({ url }) => {
    if (/^https?:\/\//.test(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  win.webContents.on('will-navigate', (event) => event.preventDefault());
  if (process.env.ELECTRON_RENDERER_URL) void win.loadURL(process.env.ELECTRON_RENDERER_URL);
  else void win.loadFile(join(here, '../renderer/index.html'));
  return win;
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    const [win] = BrowserWindow.getAllWindows();
    if (win) {
      if (win.isMinimized()) win.restore();
      win.focus();
    }
  });

  app.whenReady().then(async () => {
    log = createFileLogger({ dir: app.getPath('logs') });
    core = await Core.open({
      dataDir: app.getPath('userData'),
      credentials: new KeytarCredentialStore(),
      log,
      redactor: log.redactor,
    });
    // Until the user picks a connection, the embedded sandbox lets them work at once.
    if (!core.session) await core.useEmbedded();
    ipcMain.handle('app:info', () => ({
      version: app.getVersion(),
      sandboxBaseUrl: core?.session?.connection.baseUrl ?? null,
    }));
    createWindow();
    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0) createWindow();
    });
  });

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  app.on('will-quit', (event) => {
    if (!core) return;
    event.preventDefault();
    const closing = core;
    core = null;
    void closing
      .close()
      .then(() => log?.close())
      .finally(() => app.quit());
  });
}
