import { z } from 'zod';
import { PartnerSettings, PartnerSettingsPatch } from '../api';
import { call, None, type AreaChannels } from './channel';

/** settings.*: the partner's settings on the server, and its webhook secret. */
export const settingsChannels = {
  'settings.get': call(None, PartnerSettings),
  'settings.update': call(PartnerSettingsPatch, PartnerSettings),
  /** The secret is sent only when asked for, one call at a time; null while no webhookUrl is set. */
  'settings.revealWebhookSecret': call(None, z.object({ secret: z.string().nullable() })),
  'settings.rotateWebhookSecret': call(
    z.object({ confirm: z.literal(true) }),
    z.object({ secret: z.string() }),
  ),
} as const satisfies AreaChannels<'settings'>;
