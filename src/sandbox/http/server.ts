import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { ApiError, badRequest, unauthorized } from '../errors';
import type { Clock } from '../clock';
import type { FaultDecision, FaultInjector } from './faults';
import { clientErrorHandler, malformedRequestLine } from './request-line';

declare module 'fastify' {
  interface FastifyRequest {
    partnerId: string;
    fault: FaultDecision | null;
    dropResponse: boolean;
  }
  interface FastifyContextConfig {
    /** Served without a bearer token (token endpoint, health, OpenAPI document). */
    public?: boolean;
  }
}

export interface ServerDeps {
  /** The partner a live access token belongs to, or null. */
  authenticate: (token: string) => string | null;
  faults: FaultInjector;
  /** The sandbox's time: every answer's `Date` header tells it, as its timestamps do. */
  clock: Clock;
  log: (line: string) => void;
}

/** The error or dropped response a fault decided on (after its latency, if any). */
function applyFault(
  fault: FaultDecision,
  request: FastifyRequest,
  reply: FastifyReply,
  done: (error?: Error) => void,
): void {
  if (fault.errorStatus !== null) {
    if (fault.errorStatus === 429 || fault.errorStatus === 503) reply.header('retry-after', '1');
    done(
      new ApiError(fault.errorStatus, {
        detail: `Injected fault: ${fault.errorStatus} (sandbox fault injection)`,
      }),
    );
    return;
  }
  request.dropResponse = fault.dropResponse;
  done();
}

/**
 * The HTTP shell: JSON errors in the spec's shapes, bearer authentication on every route that is
 * not public, and fault injection on /v1. Routes are registered by the caller.
 */
export function createHttpServer(deps: ServerDeps): FastifyInstance {
  const app = Fastify({
    logger: false,
    bodyLimit: 1024 * 1024,
    return503OnClosing: true,
    forceCloseConnections: true,
    // Node's strict parser even when the process runs with --insecure-http-parser: no lenient
    // line endings or header values that a proxy in front could read differently.
    http: { insecureHTTPParser: false },
    clientErrorHandler,
  });
  // /v1 takes JSON only; the token endpoint registers the form parser in its own scope.
  app.removeContentTypeParser('text/plain');
  app.decorateRequest('partnerId', '');
  app.decorateRequest('fault', null);
  app.decorateRequest('dropResponse', false);

  // Callback-style hooks: on every request's path, and cheaper than async ones (no promise).
  app.addHook('onRequest', (request, reply, done) => {
    // First, on every request (public, unknown path or not): a broken request line is a 400.
    const malformed = malformedRequestLine(request.raw);
    if (malformed) return done(new ApiError(400, { detail: malformed }, { connection: 'close' }));
    if (deps.faults.unreachable) {
      // As a server that is gone: the connection closes unanswered, nothing is handled.
      request.raw.socket.destroy();
      return done(new ApiError(503, { detail: 'The sandbox is simulating being offline' }));
    }
    if (request.routeOptions.config.public || request.is404) return done();
    const header = request.headers.authorization ?? '';
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match)
      return done(
        unauthorized('Missing bearer token: send Authorization: Bearer <access_token>', false),
      );
    const partnerId = deps.authenticate(match[1]!);
    if (!partnerId)
      return done(unauthorized('The access token is invalid or has expired: request a new one'));
    request.partnerId = partnerId;
    if (request.url.startsWith('/v1/'))
      request.fault = deps.faults.decide(request.method, request.url);
    done();
  });

  // Faults apply once the body is read, so that latency delays the handler itself: a client that
  // gives up meanwhile leaves a write that still commits later, as a slow server would.
  app.addHook('preHandler', (request, reply, done) => {
    const fault = request.fault;
    if (!fault) return done();
    if (fault.latencyMs > 0) setTimeout(applyFault, fault.latencyMs, fault, request, reply, done);
    else applyFault(fault, request, reply, done);
  });

  // A dropped response: the handler has committed; the client sees the connection close unanswered.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.dropResponse) reply.raw.destroy();
    reply.header('date', new Date(deps.clock.now()).toUTCString());
    done(null, payload);
  });

  app.setErrorHandler((error: unknown, request, reply) => {
    if (error instanceof ApiError) {
      return reply.status(error.status).headers(error.headers).send(error.body);
    }
    const e = error as { statusCode?: number; message?: string; code?: string };
    if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500) {
      return reply.status(e.statusCode).send({ detail: fastifyMessage(e) });
    }
    deps.log(
      `error ${request.method} ${request.url}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    return reply.status(500).send({ detail: 'Internal server error' });
  });

  app.setNotFoundHandler((request, reply) => {
    reply
      .status(404)
      .send({ detail: `No such endpoint: ${request.method} ${request.url.split('?')[0]}` });
  });

  return app;
}

function fastifyMessage(e: { message?: string; code?: string }): string {
  switch (e.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'Unsupported Content-Type: send application/json';
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'The request body is empty but Content-Type is application/json';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'The request body is larger than 1 MiB';
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return `The request body is not valid JSON: ${e.message ?? ''}`.trim();
    default:
      return e.message && !e.message.startsWith('FST_') ? e.message : 'Bad request';
  }
}

/** Parses query parameters; a failure is the spec's 400 with a message naming each parameter. */
export function parseQuery<S extends z.ZodType>(schema: S, query: unknown): z.output<S> {
  const result = schema.safeParse(query);
  if (result.success) return result.data;
  const detail = result.error.issues
    .map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message))
    .join('; ');
  throw badRequest(`Invalid query parameters: ${detail}`);
}

export type Handler = (request: FastifyRequest, reply: FastifyReply) => unknown;
