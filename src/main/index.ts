import { app, BrowserWindow, dialog, ipcMain, Menu, session, shell } from 'electron';
import electronUpdater from 'electron-updater';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { IPC_EVENT, IPC_INVOKE } from '../shared/ipc';
import { Core } from './core';
import { KeytarCredentialStore } from './connections/keychain';
import { createIpcDispatcher } from './ipc/dispatch';
import { forwardIpcEvents } from './ipc/events';
import { createInvokeHandler, isTrustedRendererUrl, type RendererLocation } from './ipc/sender';
import { createFileLogger, type FileLogger } from './logging';
import { buildMenuTemplate } from './menu-template';
import { electronUpdaterPort } from './updates/updater-port';
import { isExternalHttpUrl, isPermissionAllowed, withContentSecurityPolicy } from './window-policy';

const DOCS_URL = 'https://orderdesk.example/docs';
const here = fileURLToPath(new URL('.', import.meta.url));
const rendererFile = join(here, '../renderer/index.html');
const location: RendererLocation = {
  rendererFileUrl: pathToFileURL(rendererFile).href,
  devServerUrl: process.env.ELECTRON_RENDERER_URL,
};
const isDev = !app.isPackaged;

let core: Core | null = null;
let log: FileLogger | null = null;
let win: BrowserWindow | null = null;
let stopEvents: (() => void) | null = null;

const logError = (message: string, error: unknown) =>
  log ? log.error(message, error) : console.error(message, error);
process.on('uncaughtException', (error) => logError('uncaught exception', error));
process.on('unhandledRejection', (reason) => logError('unhandled rejection', reason));

// Tests (and anyone who wants a second profile) point the app at another data directory.
// Before the single-instance lock: the lock belongs to the data directory.
if (process.env.ORDER_DESK_USER_DATA) {
  const dir = resolve(process.env.ORDER_DESK_USER_DATA);
  app.setPath('userData', dir);
  app.setAppLogsPath(join(dir, 'logs'));
}

async function openExternal(url: string): Promise<void> {
  if (!isExternalHttpUrl(url)) throw new Error('Only http and https links can be opened.');
  await shell.openExternal(url);
}

function createWindow(): BrowserWindow {
  const window = new BrowserWindow({
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
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    },
  });
  const contents = window.webContents;
  window.once('ready-to-show', () => window.show());
  contents.setWindowOpenHandler(({ url }) => {
    if (isExternalHttpUrl(url)) void openExternal(url).catch((e) => logError('open link', e));
    return { action: 'deny' };
  });
  const blockNavigation = (event: { preventDefault(): void }, url: string) => {
    if (isTrustedRendererUrl(url, location)) return;
    event.preventDefault();
    log?.warn(`blocked navigation to ${JSON.stringify(url.slice(0, 200))}`);
  };
  contents.on('will-navigate', blockNavigation);
  contents.on('will-redirect', blockNavigation);
  contents.on('render-process-gone', (_e, details) =>
    log?.error(`renderer process gone: ${details.reason} (exit code ${details.exitCode})`),
  );
  window.on('closed', () => {
    if (win === window) win = null;
  });
  if (location.devServerUrl) void window.loadURL(location.devServerUrl);
  else void window.loadFile(rendererFile);
  return window;
}

function focusWindow(): void {
  if (!win || win.isDestroyed()) {
    win = createWindow();
    return;
  }
  if (win.isMinimized()) win.restore();
  win.show();
  win.focus();
}

async function start(): Promise<void> {
  log = createFileLogger({
    dir: app.getPath('logs'),
    ...(isDev ? { echo: (line: string) => console.error(line) } : {}),
  });
  log.info(`Order Desk ${app.getVersion()} starting (electron ${process.versions.electron})`);

  const ses = session.defaultSession;
  ses.webRequest.onHeadersReceived((details, callback) =>
    callback({ responseHeaders: withContentSecurityPolicy(details.responseHeaders) }),
  );
  ses.setPermissionRequestHandler((_contents, permission, callback, details) =>
    callback(isPermissionAllowed(permission, details, location)),
  );
  ses.setPermissionCheckHandler((_contents, permission, _origin, details) =>
    isPermissionAllowed(permission, details, location),
  );

  Menu.setApplicationMenu(
    Menu.buildFromTemplate(
      buildMenuTemplate({
        appName: app.getName(),
        platform: process.platform,
        isDev,
        openDocs: () => void openExternal(DOCS_URL).catch((e) => logError('open docs', e)),
      }),
    ),
  );

  // No connection is made here: the first run shows the Connect screen, where the user picks
  // the embedded sandbox, a partner sandbox or production.
  const opened = await Core.open({
    dataDir: app.getPath('userData'),
    credentials: new KeytarCredentialStore(),
    log,
    redactor: log.redactor,
    // Updates: off until turned on in Settings; the controller in Core decides everything else.
    updater: electronUpdaterPort(electronUpdater),
  });
  core = opened;

  const dispatcher = createIpcDispatcher({
    core: opened,
    host: {
      transport: 'electron',
      version: app.getVersion(),
      platform: process.platform,
      openExternal,
    },
    log,
  });
  const invoke = createInvokeHandler({
    dispatch: (channel, args) => dispatcher.dispatch(channel, args),
    location,
    log: log.child('ipc'),
  });
  ipcMain.handle(IPC_INVOKE, (event, channel: unknown, args: unknown) => {
    let sender: { url: string; isOurMainFrame: boolean } | null = null;
    try {
      const frame = event.senderFrame;
      const contents = win && !win.isDestroyed() ? win.webContents : null;
      if (frame)
        sender = {
          url: frame.url,
          isOurMainFrame:
            contents !== null && event.sender.id === contents.id && frame.parent === null,
        };
    } catch {
      sender = null; // The frame was disposed while the call was on its way.
    }
    return invoke(sender, channel, args);
  });
  stopEvents = forwardIpcEvents(opened, (name, payload) => {
    if (!win || win.isDestroyed() || win.webContents.isDestroyed()) return;
    if (!isTrustedRendererUrl(win.webContents.getURL(), location)) return;
    win.webContents.send(IPC_EVENT, name, payload);
  });

  win = createWindow();
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) win = createWindow();
  });
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (app.isReady() && core) focusWindow();
  });

  app
    .whenReady()
    .then(start)
    .catch((error: unknown) => {
      logError('Order Desk could not start', error);
      dialog.showErrorBox(
        'Order Desk could not start',
        error instanceof Error ? error.message : String(error),
      );
      app.exit(1);
    });

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  app.on('will-quit', (event) => {
    if (!core) return;
    event.preventDefault();
    const closing = core;
    core = null;
    stopEvents?.();
    stopEvents = null;
    ipcMain.removeHandler(IPC_INVOKE);
    void closing
      .close()
      .catch((error: unknown) => logError('closing the core failed', error))
      .then(() => log?.close())
      .finally(() => app.quit());
  });
}
