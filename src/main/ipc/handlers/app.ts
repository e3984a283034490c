import { z } from 'zod';
import { Theme, type AppState } from '@shared/ipc';
import { DEFAULT_START_SCREEN, StartScreen } from '@shared/ipc/app';
import type { Session } from '@main/connection-session';
import type { Core } from '@main/core';
import { outboxCount } from '@main/protocols/conflicts';
import { SETTING_KEYS, StoreError } from '@main/db';
import { toConnectionView } from '../connection-view';
import type { AreaHandlers, IpcHandlerDeps } from './context';

/** app.*: the window's state, theme, notifications, notices, links. */
export function appHandlers({ core, host }: IpcHandlerDeps): AreaHandlers<'app'> {
  const appState = (): AppState => {
    const s = core.session;
    const active = core.app.connections.active();
    return {
      version: host.version,
      transport: host.transport,
      platform: host.platform,
      connection: active ? toConnectionView(active) : null,
      online: s?.connectivity.online ?? false,
      offlineReason: s?.connectivity.reason ?? null,
      sync: core.syncState ?? {
        phase: s && !s.connectivity.online ? 'offline' : 'idle',
        lastSyncedAt: s?.sync.lastSyncedAt ?? null,
        error: null,
        skipped: [],
      },
      outbox: outboxOf(core, s),
      theme: core.app.settings.get(SETTING_KEYS.theme, Theme, 'system'),
      notifications: core.app.settings.get(SETTING_KEYS.notifications, z.boolean(), true),
      startScreen: core.app.settings.get(
        SETTING_KEYS.startScreen,
        StartScreen,
        DEFAULT_START_SCREEN,
      ),
      protocolColumns: core.protocolColumns(),
      // Issue 12 (polish): the Connect screen says where the secret is kept.
      secretStorage: core.secretStorage,
      notices: core.notices(),
      storage: core.storageProblem,
      ...core.desk.view(),
      desk: { name: core.desk.actor().deskName, osUser: core.desk.actor().osUser },
      retentionYears: core.retentionYears(),
    };
  };

  return {
    'app.state': async () => appState(),
    'app.setTheme': async ({ theme }) => {
      core.changeSetting(SETTING_KEYS.theme, theme);
      return null;
    },
    'app.setNotifications': async ({ enabled }) => {
      core.changeSetting(SETTING_KEYS.notifications, enabled);
      return null;
    },
    'app.setStartScreen': async ({ screen }) => {
      core.changeSetting(SETTING_KEYS.startScreen, screen);
      return null;
    },
    'app.setProtocolColumns': async ({ columns }) => {
      core.setProtocolColumns(columns);
      return null;
    },
    'app.dismissNotice': async ({ id }) => {
      core.dismissNotice(id);
      return null;
    },
    'app.presence': async (report) => {
      core.presence.report(report);
      return null;
    },
    'app.openExternal': async ({ url }) => {
      await host.openExternal(url);
      return null;
    },
  };
}

/** The header's counts; none while no store is open (none active, or one being recovered). */
function outboxOf(core: Core, s: Session | null) {
  try {
    if (s) return outboxCount(core.store);
  } catch (error) {
    if (!(error instanceof StoreError && error.code === 'unavailable')) throw error;
  }
  return { pending: 0, inDoubt: 0, conflicts: 0 };
}
