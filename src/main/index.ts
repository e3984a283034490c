import { app, BrowserWindow, dialog, ipcMain, Menu, protocol, session, shell } from 'electron';
import electronUpdater from 'electron-updater';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { IPC_EVENT, IPC_INVOKE } from '../shared/ipc';
import { APP_SCHEME, APP_SCHEME_PRIVILEGES, createAppProtocolHandler } from './app-protocol';
import { guardWebContents } from './contents-guard';
import { guardDownloads } from './download-policy';
import { KeytarCredentialStore } from './connections/keychain';
import { createIpcDispatcher } from './ipc/dispatch';
import { forwardIpcEvents } from './ipc/event-forwarding';
import { createInvokeHandler } from './ipc/sender';
import { createFileLogger, silentLogger, type FileLogger } from './logging';
import { buildMenuTemplate } from './menu-template';
import { savePageAsPdf } from './pdf-save';
import { decideProfileLocation } from './profile-location';
import { decideRendererLocation, isTrustedRendererUrl } from './renderer-location';
import { applySessionPolicy } from './session-policy';
import { Startup } from './startup';
import { electronUpdaterPort } from './updates/updater-port';
import { CONTENT_SECURITY_POLICY, isExternalHttpUrl } from './window-policy';

const DOCS_URL = 'https://orderdesk.example/docs';
const here = fileURLToPath(new URL('.', import.meta.url));
const rendererDir = join(here, '../renderer');
// The dev server (ELECTRON_RENDERER_URL) only in an unpackaged app; else our app:// page.
const renderer = decideRendererLocation({ isPackaged: app.isPackaged, env: process.env });
const { location } = renderer;
const isDev = !app.isPackaged;

let startup: Startup | null = null;
let log: FileLogger | null = null;
let win: BrowserWindow | null = null;
let stopEvents: (() => void) | null = null;

const logError = (message: string, error: unknown) =>
  log ? log.error(message, error) : console.error(message, error);
process.on('uncaughtException', (error) => logError('uncaught exception', error));
process.on('unhandledRejection', (reason) => logError('unhandled rejection', reason));

// Tests (and a developer's second profile) point an unpackaged app at another data directory.
// Before the single-instance lock: the lock belongs to the data directory.
const profile = decideProfileLocation({
  isPackaged: app.isPackaged,
  env: process.env,
  cwd: process.cwd(),
});
if (profile.dataDir && profile.logsDir) {
  app.setPath('userData', profile.dataDir);
  app.setAppLogsPath(profile.logsDir);
}

async function openExternal(url: string): Promise<void> {
  if (!isExternalHttpUrl(url)) throw new Error('Only http and https links can be opened.');
  await shell.openExternal(url);
}

/** The window's page as it prints (Letter unless its CSS names a size), saved where the user chooses. */
async function saveWindowAsPdf(fileName: string) {
  const target = win;
  if (!target || target.isDestroyed()) throw new Error('There is no window to print.');
  return savePageAsPdf(
    {
      printPage: () =>
        target.webContents.printToPDF({ pageSize: 'Letter', preferCSSPageSize: true }),
      chooseFile: async (name) => {
        const chosen = await dialog.showSaveDialog(target, {
          defaultPath: join(app.getPath('documents'), name),
          filters: [{ name: 'PDF document', extensions: ['pdf'] }],
        });
        return chosen.canceled || !chosen.filePath ? null : chosen.filePath;
      },
      writeFile: (path, data) => writeFile(path, data),
    },
    fileName,
  );
}

// Before the app is ready: app:// must be privileged before any session exists, and every web
// contents (our window and any other) gets the navigation, window-open and webview guard.
protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES]);
// (Contents are only created once start() has opened the log.)
app.on('web-contents-created', (_event, contents) =>
  guardWebContents(contents, { location, openExternal, log: log?.child('guard') ?? silentLogger }),
);

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
      // No auxclick events: a middle-click on a link is only ever a window.open, which the guard
      // denies (or hands to the system browser).
      disableBlinkFeatures: 'Auxclick',
    },
  });
  window.once('ready-to-show', () => window.show());
  window.on('closed', () => {
    if (win === window) win = null;
  });
  void window.loadURL(renderer.loadUrl);
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

  if (renderer.ignoredDevServer) log.warn(renderer.ignoredDevServer);
  if (profile.ignored) log.warn(profile.ignored);
  const protocolLog = log.child('app-protocol');
  protocol.handle(
    APP_SCHEME,
    createAppProtocolHandler({
      rootDir: rendererDir,
      readFile: (path) => readFile(path),
      contentSecurityPolicy: CONTENT_SECURITY_POLICY,
      onRefused: (url, reason) =>
        protocolLog.warn(`${reason}: ${JSON.stringify(url.slice(0, 200))}`),
    }),
  );
  applySessionPolicy(session.defaultSession, { location, log: log.child('session') });
  // Only the page's own saves (a Blob of our origin) may download; anything else is cancelled.
  guardDownloads(session.defaultSession, { location, log: log.child('downloads') });

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

  // The data folder is taken now; its stores are opened (and encrypted, the first time) while
  // the window shows how far along that is. No connection is made here: the first run shows the
  // Connect screen, where the user picks the embedded sandbox, a partner sandbox or production.
  const opened = Startup.begin({
    dataDir: app.getPath('userData'),
    credentials: new KeytarCredentialStore(),
    log,
    redactor: log.redactor,
    // Updates: off until turned on in Settings; the controller in Core decides everything else.
    updater: electronUpdaterPort(electronUpdater),
  });
  startup = opened;

  const dispatcher = createIpcDispatcher({
    startup: opened,
    host: {
      transport: 'electron',
      version: app.getVersion(),
      platform: process.platform,
      openExternal,
      savePdf: saveWindowAsPdf,
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
    if (app.isReady() && startup) focusWindow();
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
    if (!startup) return;
    event.preventDefault();
    const closing = startup;
    startup = null;
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
