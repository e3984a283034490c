import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { TokenRequest, type OAuthErrorBody } from '@shared/api';
import { ApiError } from '../errors';
import type { RouteContext } from './context';

const oauthError = (reply: FastifyReply, status: number, body: OAuthErrorBody) =>
  reply.status(status).headers({ 'cache-control': 'no-store', pragma: 'no-cache' }).send(body);

/** Client credentials from HTTP Basic (RFC 6749 2.3.1), if the request uses it. */
function basicCredentials(
  header: string | undefined,
): { client_id: string; client_secret: string } | null {
  const m = /^Basic\s+(\S+)$/i.exec(header ?? '');
  if (!m) return null;
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  // RFC 6749 form-encodes both before Basic encoding; a malformed escape is taken literally (no 500).
  const decode = (s: string) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  };
  return {
    client_id: decode(decoded.slice(0, colon)),
    client_secret: decode(decoded.slice(colon + 1)),
  };
}

/** POST /oauth2/token: the client credentials grant, with RFC 6749 error bodies. */
export function registerTokenRoutes(app: FastifyInstance, ctx: RouteContext): void {
  app.register(async (scope) => {
    await scope.register(formbody);
    // Whatever goes wrong before the handler (a malformed request line, unknown content type,
    // unreadable body) is still an RFC 6749 error.
    scope.setErrorHandler((error: { statusCode?: number }, _request, reply) =>
      oauthError(reply, error.statusCode === 413 ? 413 : 400, {
        error: 'invalid_request',
        error_description:
          error instanceof ApiError && typeof error.body.detail === 'string'
            ? error.body.detail
            : 'Send the token request as application/x-www-form-urlencoded',
      }),
    );
    scope.post('/oauth2/token', { config: { public: true } }, async (request, reply) => {
      const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      if (type !== 'application/x-www-form-urlencoded') {
        return oauthError(reply, 400, {
          error: 'invalid_request',
          error_description: 'Send the token request as application/x-www-form-urlencoded',
        });
      }
      const form: Record<string, unknown> = {
        ...(request.body as Record<string, unknown>),
        ...basicCredentials(request.headers.authorization),
      };
      if (form.grant_type === undefined) {
        return oauthError(reply, 400, {
          error: 'invalid_request',
          error_description: 'grant_type is required',
        });
      }
      if (form.grant_type !== 'client_credentials') {
        return oauthError(reply, 400, {
          error: 'unsupported_grant_type',
          error_description: 'Only grant_type=client_credentials is supported',
        });
      }
      const parsed = TokenRequest.safeParse(form);
      if (!parsed.success) {
        return oauthError(reply, 400, {
          error: 'invalid_request',
          error_description: 'client_id and client_secret are required',
        });
      }
      const partnerId = ctx.partners.authenticateClient(
        parsed.data.client_id,
        parsed.data.client_secret,
      );
      if (!partnerId) {
        return oauthError(reply, 401, {
          error: 'invalid_client',
          error_description: 'Unknown client or wrong secret',
        });
      }
      const token = ctx.partners.issueToken(partnerId, ctx.tokenTtlSeconds, ctx.clock.now());
      return reply
        .headers({ 'cache-control': 'no-store', pragma: 'no-cache' })
        .send({ access_token: token, expires_in: ctx.tokenTtlSeconds, token_type: 'Bearer' });
    });
  });
}
