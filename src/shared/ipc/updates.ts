import { UpdateSettings, UpdatesView } from '../update-views';
import { call, None, Nothing, type AreaChannels } from './channel';

/** updates.*: the app's own updates: settings (off by default) and what the updater is doing. */
export const updatesChannels = {
  /** The settings, and what the updater is doing. */
  'updates.get': call(None, UpdatesView),
  /** Saves the settings; turning updates on (or a new feed URL) checks at once. */
  'updates.configure': call(UpdateSettings, UpdatesView),
  /** Checks now; the outcome follows as update-status events. Refused without an updater or while off. */
  'updates.check': call(None, UpdatesView),
  /** "Restart to update": refused unless an update is ready and no batch is running. */
  'updates.install': call(None, Nothing),
} as const satisfies AreaChannels<'updates'>;
