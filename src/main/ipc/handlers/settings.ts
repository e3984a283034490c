import type { PartnerSettings } from '@shared/api';
import { keepPricing } from '@main/catalog/partner-pricing';
import { requireSession, type AreaHandlers, type IpcHandlerDeps } from './context';

/** settings.*: the partner's settings on the server, and its webhook secret. */
export function settingsHandlers({ core }: IpcHandlerDeps): AreaHandlers<'settings'> {
  const session = () => requireSession(core);

  /** Partner settings the server answered: their pricing terms are what estimates use now. */
  const keptSettings = (settings: PartnerSettings): PartnerSettings => {
    keepPricing(core.store, settings, core.clock.now());
    return settings;
  };

  return {
    'settings.get': async () => keptSettings(await session().client.getPartnerSettings()),
    'settings.update': async (patch) => {
      const s = session();
      const settings = keptSettings(await s.client.updatePartnerSettings(patch));
      s.activity.record({
        action: 'settings-changed',
        detail: { scope: 'partner', keys: Object.keys(patch).sort() },
      });
      return settings;
    },
    'settings.revealWebhookSecret': async () => ({
      secret: await session().client.getWebhookSecret(),
    }),
    'settings.rotateWebhookSecret': async () => {
      const s = session();
      const secret = await s.client.rotateWebhookSecret();
      s.activity.record({
        action: 'settings-changed',
        detail: { scope: 'partner', keys: ['webhookSecret'] },
      });
      return { secret };
    },
  };
}
