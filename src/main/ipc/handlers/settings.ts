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
    'settings.update': async (patch) =>
      keptSettings(await session().client.updatePartnerSettings(patch)),
    'settings.revealWebhookSecret': async () => ({
      secret: await session().client.getWebhookSecret(),
    }),
    'settings.rotateWebhookSecret': async () => ({
      secret: await session().client.rotateWebhookSecret(),
    }),
  };
}
