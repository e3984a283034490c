import type { MenuItemConstructorOptions } from 'electron';

export interface MenuOptions {
  appName: string;
  /** process.platform: macOS gets the app menu and its own conventions. */
  platform: string;
  /** Development build: reload and the developer tools appear in View. */
  isDev: boolean;
  /** Opens the documentation in the system browser. */
  openDocs: () => void;
}

const separator: MenuItemConstructorOptions = { type: 'separator' };

/**
 * The application menu as a plain template (Menu.buildFromTemplate turns it into the menu).
 * Roles give the native behaviour; accelerators are spelled out so the shortcuts are the same
 * on every platform and visible in one place.
 */
export function buildMenuTemplate(options: MenuOptions): MenuItemConstructorOptions[] {
  const mac = options.platform === 'darwin';

  const appMenu: MenuItemConstructorOptions[] = mac
    ? [
        {
          label: options.appName,
          submenu: [
            { role: 'about' },
            separator,
            { role: 'services' },
            separator,
            { role: 'hide', accelerator: 'Command+H' },
            { role: 'hideOthers', accelerator: 'Command+Alt+H' },
            { role: 'unhide' },
            separator,
            { role: 'quit', accelerator: 'Command+Q' },
          ],
        },
      ]
    : [];

  const file: MenuItemConstructorOptions = {
    label: 'File',
    submenu: mac
      ? [{ role: 'close', accelerator: 'Command+W' }]
      : [{ role: 'close', accelerator: 'Control+W' }, separator, { role: 'quit' }],
  };

  const edit: MenuItemConstructorOptions = {
    label: 'Edit',
    submenu: [
      { role: 'undo', accelerator: 'CmdOrCtrl+Z' },
      { role: 'redo', accelerator: mac ? 'Shift+Command+Z' : 'Control+Y' },
      separator,
      { role: 'cut', accelerator: 'CmdOrCtrl+X' },
      { role: 'copy', accelerator: 'CmdOrCtrl+C' },
      { role: 'paste', accelerator: 'CmdOrCtrl+V' },
      { role: 'selectAll', accelerator: 'CmdOrCtrl+A' },
    ],
  };

  const devItems: MenuItemConstructorOptions[] = options.isDev
    ? [
        { role: 'reload', accelerator: 'CmdOrCtrl+R' },
        { role: 'forceReload', accelerator: 'Shift+CmdOrCtrl+R' },
        { role: 'toggleDevTools', accelerator: mac ? 'Alt+Command+I' : 'Control+Shift+I' },
        separator,
      ]
    : [];

  const view: MenuItemConstructorOptions = {
    label: 'View',
    submenu: [
      ...devItems,
      { role: 'resetZoom', accelerator: 'CmdOrCtrl+0' },
      { role: 'zoomIn', accelerator: 'CmdOrCtrl+=' },
      { role: 'zoomOut', accelerator: 'CmdOrCtrl+-' },
      separator,
      { role: 'togglefullscreen', accelerator: mac ? 'Control+Command+F' : 'F11' },
    ],
  };

  const window: MenuItemConstructorOptions = {
    label: 'Window',
    role: 'window',
    submenu: mac
      ? [
          { role: 'minimize', accelerator: 'Command+M' },
          { role: 'zoom' },
          separator,
          { role: 'front' },
        ]
      : [{ role: 'minimize', accelerator: 'Control+M' }],
  };

  const help: MenuItemConstructorOptions = {
    label: 'Help',
    role: 'help',
    submenu: [{ label: `${options.appName} Documentation`, click: () => options.openDocs() }],
  };

  return [...appMenu, file, edit, view, window, help];
}
