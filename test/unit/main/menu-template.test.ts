import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import { buildMenuTemplate, type MenuOptions } from '@main/menu-template';

const options = (over: Partial<MenuOptions> = {}): MenuOptions => ({
  appName: 'Order Desk',
  platform: 'linux',
  isDev: false,
  openDocs: () => undefined,
  ...over,
});

const submenuOf = (template: MenuItemConstructorOptions[], label: string) => {
  const menu = template.find((m) => m.label === label);
  expect(menu, `menu ${label}`).toBeDefined();
  return menu!.submenu as MenuItemConstructorOptions[];
};

/** role -> accelerator of every item of a menu (separators left out). */
const rolesOf = (items: MenuItemConstructorOptions[]) =>
  Object.fromEntries(items.filter((i) => i.role).map((i) => [i.role, i.accelerator]));

describe('application menu template', () => {
  it('has File, Edit, View, Window and Help, in that order, off macOS', () => {
    expect(buildMenuTemplate(options()).map((m) => m.label)).toEqual([
      'File',
      'Edit',
      'View',
      'Window',
      'Help',
    ]);
  });

  it('puts the app menu first on macOS, with Quit there and Close in File', () => {
    const template = buildMenuTemplate(options({ platform: 'darwin' }));
    expect(template.map((m) => m.label)).toEqual([
      'Order Desk',
      'File',
      'Edit',
      'View',
      'Window',
      'Help',
    ]);
    expect(rolesOf(submenuOf(template, 'Order Desk'))).toMatchObject({
      about: undefined,
      quit: 'Command+Q',
    });
    expect(rolesOf(submenuOf(template, 'File'))).toEqual({ close: 'Command+W' });
  });

  it('has Close and Quit in File off macOS', () => {
    expect(Object.keys(rolesOf(submenuOf(buildMenuTemplate(options()), 'File')))).toEqual([
      'close',
      'quit',
    ]);
  });

  it('gives the edit roles their usual shortcuts', () => {
    expect(rolesOf(submenuOf(buildMenuTemplate(options()), 'Edit'))).toEqual({
      undo: 'CmdOrCtrl+Z',
      redo: 'Control+Y',
      cut: 'CmdOrCtrl+X',
      copy: 'CmdOrCtrl+C',
      paste: 'CmdOrCtrl+V',
      selectAll: 'CmdOrCtrl+A',
    });
    expect(
      rolesOf(submenuOf(buildMenuTemplate(options({ platform: 'darwin' })), 'Edit')).redo,
    ).toBe('Shift+Command+Z');
  });

  it('has zoom and full screen in View, but no reload or developer tools in production', () => {
    const view = rolesOf(submenuOf(buildMenuTemplate(options({ isDev: false })), 'View'));
    expect(view).toEqual({
      resetZoom: 'CmdOrCtrl+0',
      zoomIn: 'CmdOrCtrl+=',
      zoomOut: 'CmdOrCtrl+-',
      togglefullscreen: 'F11',
    });
    expect(view).not.toHaveProperty('reload');
    expect(view).not.toHaveProperty('forceReload');
    expect(view).not.toHaveProperty('toggleDevTools');
  });

  it('adds reload and developer tools to View in development', () => {
    const view = rolesOf(submenuOf(buildMenuTemplate(options({ isDev: true })), 'View'));
    expect(view).toMatchObject({
      reload: 'CmdOrCtrl+R',
      forceReload: 'Shift+CmdOrCtrl+R',
      toggleDevTools: 'Control+Shift+I',
      zoomIn: 'CmdOrCtrl+=',
    });
    expect(
      rolesOf(submenuOf(buildMenuTemplate(options({ isDev: true, platform: 'darwin' })), 'View')),
    ).toMatchObject({ toggleDevTools: 'Alt+Command+I', togglefullscreen: 'Control+Command+F' });
  });

  it('has a Window menu with minimize', () => {
    const template = buildMenuTemplate(options());
    expect(template.find((m) => m.label === 'Window')?.role).toBe('window');
    expect(rolesOf(submenuOf(template, 'Window'))).toEqual({ minimize: 'Control+M' });
  });

  it('opens the documentation from Help', () => {
    let opened = 0;
    const template = buildMenuTemplate(options({ openDocs: () => (opened += 1) }));
    const [docs] = submenuOf(template, 'Help');
    expect(docs?.label).toBe('Order Desk Documentation');
    (docs!.click as () => void)();
    expect(opened).toBe(1);
  });
});
