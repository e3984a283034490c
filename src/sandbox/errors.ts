import type { ValidationIssue } from '../shared/api';

/** An error the service answers with: a status and the spec's body for it. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: { detail: string } | { detail: ValidationIssue[] },
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body.detail === 'string' ? body.detail : 'request body failed validation');
    this.name = 'ApiError';
  }
}

export const badRequest = (detail: string) => new ApiError(400, { detail });
/** 401; RFC 6750: the error code is named only when a token was sent. */
export const unauthorized = (detail: string, tokenSent = true) =>
  new ApiError(
    401,
    { detail },
    { 'www-authenticate': tokenSent ? 'Bearer error="invalid_token"' : 'Bearer' },
  );
export const notFound = (detail: string) => new ApiError(404, { detail });
export const conflict = (detail: string) => new ApiError(409, { detail });
export const unprocessable = (issues: ValidationIssue[]) => new ApiError(422, { detail: issues });
