import type { FastifyInstance } from 'fastify';
import { HttpUrl, PartnerSettingsPatch, validateBody } from '@shared/api';
import { notFound, unprocessable } from '../errors';
import { publicHostProblem, type HostPolicy } from '../public-host';
import type { RouteContext } from './context';

const NO_SECRET =
  'No webhook secret: a webhook secret exists only while a webhookUrl is set in partner settings';

/**
 * A clean http(s) URL (the shared rule) whose host is public (publicHostProblem); `advice`, what
 * to do instead, follows the reason. People read it on the Settings screen: it names no flag.
 */
const publicUrl = (policy: HostPolicy, advice = '') =>
  HttpUrl.superRefine((url, ctx) => {
    const problem = publicHostProblem(url, policy);
    if (problem)
      ctx.addIssue({ code: 'custom', message: `a public host, not ${problem}${advice}` });
  });

/** What a clinic can do about a webhook URL the partner's service cannot call. */
const WEBHOOK_ADVICE =
  ": order updates are sent over the internet, which cannot reach this computer or the clinic's own network. Give the internet address of your webhook receiver, or leave the field empty to turn webhooks off";

/**
 * The settings patch as this service takes it: the shared schema, and the URLs it calls (the
 * webhook) or publishes (website, logo) only on public hosts. Loopback webhooks only when the
 * sandbox was started to take them (allowLoopbackWebhooks, a test and development flag that
 * docs/decisions.md names; the refusal does not).
 */
export function settingsPatchSchema(allowLoopbackWebhooks: boolean) {
  return PartnerSettingsPatch.extend({
    webhookUrl: publicUrl({ allowLoopback: allowLoopbackWebhooks }, WEBHOOK_ADVICE)
      .nullable()
      .optional(),
    website: publicUrl({ allowLoopback: false }).nullable().optional(),
    logo: publicUrl({ allowLoopback: false }).nullable().optional(),
  });
}

export function registerPartnerRoutes(app: FastifyInstance, ctx: RouteContext): void {
  const SettingsPatch = settingsPatchSchema(ctx.allowLoopbackWebhooks);

  app.get('/v1/partners/settings', async (request) => ctx.partners.settings(request.partnerId));

  app.patch('/v1/partners/settings', async (request) => {
    const patch = validateBody(SettingsPatch, request.body);
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
