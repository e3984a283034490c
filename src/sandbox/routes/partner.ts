import type { FastifyInstance } from 'fastify';
import { PartnerSettingsPatch, validateBody } from '../../shared/api';
import { notFound, unprocessable } from '../errors';
import type { RouteContext } from './context';

const NO_SECRET =
  'No webhook secret: a webhook secret exists only while a webhookUrl is set in partner settings';

export function registerPartnerRoutes(app: FastifyInstance, ctx: RouteContext): void {
  app.get('/v1/partners/settings', async (request) => ctx.partners.settings(request.partnerId));

  app.patch('/v1/partners/settings', async (request) => {
    const patch = validateBody(PartnerSettingsPatch, request.body);
    if (!patch.ok) throw unprocessable(patch.issues);
    return ctx.partners.patchSettings(request.partnerId, patch.value, ctx.clock.now());
  });

  app.get('/v1/partners/settings/webhook-secret', async (request) => {
    const secret = ctx.partners.webhookSecret(request.partnerId);
    if (!secret) throw notFound(NO_SECRET);
    return { webhookSecret: secret };
  });

  app.post('/v1/partners/settings/rotate-webhook-secret', async (request) => {
    const secret = ctx.partners.rotateWebhookSecret(request.partnerId);
    if (!secret) throw notFound(NO_SECRET);
    return { webhookSecret: secret };
  });
}
