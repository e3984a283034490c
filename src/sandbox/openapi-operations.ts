import { ref, type JsonSchema } from './openapi-components';

/** Building blocks of the OpenAPI document's operations. */

export type Operation = Record<string, unknown>;
export type PathItem = Partial<Record<'get' | 'post' | 'put' | 'patch' | 'delete', Operation>>;

export const JSON_TYPE = 'application/json';
export const json = (schema: JsonSchema) => ({ [JSON_TYPE]: { schema } });
export const ok = (description: string, schema: JsonSchema) => ({
  description,
  content: json(schema),
});
export const body = (schema: JsonSchema, required = true) => ({ required, content: json(schema) });
export const response = (name: string) => ({ $ref: `#/components/responses/${name}` });

/** Error responses shared by operations: every one is `{detail}` or the 422 location list. */
export const ERROR_RESPONSES = {
  BadRequest: ok(
    'Malformed request: bad query parameter, bad cursor, malformed JSON body',
    ref('ErrorDetail'),
  ),
  Unauthorized: {
    description: 'Missing, invalid or expired bearer token',
    headers: {
      'WWW-Authenticate': {
        schema: { type: 'string' },
        description: 'Bearer error="invalid_token"',
      },
    },
    content: json(ref('ErrorDetail')),
  },
  NotFound: ok('The resource does not exist (or belongs to another partner)', ref('ErrorDetail')),
  Conflict: ok('The resource is not in a state that allows the operation', ref('ErrorDetail')),
  ValidationFailed: ok(
    'The body failed validation: one entry per problem, `loc` starting with "body"',
    ref('ValidationErrorBody'),
  ),
  Unexpected: ok(
    'Any other error: injected sandbox faults (429, 500, 502, 503; 429 and 503 with Retry-After) and server errors',
    ref('ErrorDetail'),
  ),
};

export type ErrorCode = 400 | 404 | 409 | 422;
const ERROR_NAME: Record<ErrorCode, keyof typeof ERROR_RESPONSES> = {
  400: 'BadRequest',
  404: 'NotFound',
  409: 'Conflict',
  422: 'ValidationFailed',
};

/** An operation behind the bearer token, with 401, the listed errors, and any other error. */
export function op(
  operationId: string,
  tag: string,
  summary: string,
  responses: Record<string, unknown>,
  errors: ErrorCode[],
  extra: Operation = {},
): Operation {
  const errorResponses = Object.fromEntries(
    errors.map((code) => [String(code), response(ERROR_NAME[code])]),
  );
  return {
    operationId,
    tags: [tag],
    summary,
    ...extra,
    responses: {
      ...responses,
      ...errorResponses,
      401: response('Unauthorized'),
      default: response('Unexpected'),
    },
  };
}

export const pathParam = (
  name: string,
  description: string,
  schema: JsonSchema = { type: 'string' },
) => ({
  name,
  in: 'path',
  required: true,
  description,
  schema,
});
export const orderId = pathParam('orderId', 'Order identifier');
export const protocolId = pathParam('protocolId', 'Protocol identifier');
export const productId = pathParam('productId', 'Product identifier', {
  type: 'integer',
  minimum: 1,
});
