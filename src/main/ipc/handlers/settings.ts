import type { PartnerSettings } from '@shared/api';
import { keepPricing } from '@main/catalog/partner-pricing';
import { sessionWrapper, type AreaHandlers, type IpcHandlerDeps } from './context';

/** settings.*: the partner's settings on the server, and its webhook secret. */
export function settingsHandlers({ core }: IpcHandlerDeps): AreaHandlers<'settings'> {
  const withSession = sessionWrapper(core);

  /** Partner settings the server answered: their pricing terms are what estimates use now. */
  const keptSettings = (settings: PartnerSettings): PartnerSettings => {
    keepPricing(core.store, settings, core.clock.now());
    return settings;
  };

  return {
    'settings.get': withSession(async (_, s) => keptSettings(await s.client.getPartnerSettings())),
    'settings.update': withSession(async (patch, s) => {
      const settings = keptSettings(await s.client.updatePartnerSettings(patch));
      s.activity.record({
        action: 'settings-changed',
        detail: { scope: 'partner', keys: Object.keys(patch).sort() },
      });
      return settings;
    }),
    'settings.revealWebhookSecret': withSession(async (_, s) => ({
      secret: await s.client.getWebhookSecret(),
    })),
    'settings.rotateWebhookSecret': withSession(async (_, s) => {
      const secret = await s.client.rotateWebhookSecret();
      s.activity.record({
        action: 'settings-changed',
        detail: { scope: 'partner', keys: ['webhookSecret'] },
      });
      return { secret };
    }),
  };
}
