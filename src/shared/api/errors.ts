import { z } from 'zod';

/** 400 and 404 bodies: `{detail: string}`. Also used for 401, 409, 429 and 5xx (docs/decisions.md). */
export const ErrorDetail = z.object({ detail: z.string() });
export type ErrorDetail = z.infer<typeof ErrorDetail>;

export const VALIDATION_ERROR_TYPES = ['missing', 'invalid', 'type_error'] as const;
export const ValidationErrorType = z.enum(VALIDATION_ERROR_TYPES);
export type ValidationErrorType = z.infer<typeof ValidationErrorType>;

/** One element of a 422 body: where in the request body, and which kind of failure. */
export const ValidationIssue = z.object({
  loc: z.array(z.union([z.string(), z.number()])),
  type: ValidationErrorType,
  /** A human-readable message. Not in the spec; an extra field that clients may show. */
  msg: z.string().optional(),
});
export type ValidationIssue = z.infer<typeof ValidationIssue>;

/** 422 body: `{detail: [{loc, type}]}`. */
export const ValidationErrorBody = z.object({ detail: z.array(ValidationIssue).min(1) });
export type ValidationErrorBody = z.infer<typeof ValidationErrorBody>;

/** RFC 6749 section 5.2 error body of the token endpoint. */
export const OAuthErrorCode = z.enum([
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'invalid_scope',
]);
export const OAuthErrorBody = z.object({
  error: OAuthErrorCode,
  error_description: z.string().optional(),
});
export type OAuthErrorBody = z.infer<typeof OAuthErrorBody>;

/**
 * Turns zod issues into the spec's 422 locations. `loc` starts with "body" (the FastAPI
 * convention the spec's error shape comes from). A value that is absent is `missing`, a value
 * of the wrong JSON type is `type_error`, every other rule (range, pattern, enum) is `invalid`.
 */
export function toValidationIssues(
  issues: readonly z.core.$ZodIssue[],
  root: readonly (string | number)[] = ['body'],
): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  for (const issue of issues) {
    const path = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p));
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        out.push({
          loc: [...root, ...path, key],
          type: 'invalid',
          msg: `unknown or read-only field "${key}"`,
        });
      }
      continue;
    }
    if (issue.code === 'invalid_union') {
      // A union failed on every branch: report the branch whose issues went deepest.
      const best = issue.errors
        .map((branch) => toValidationIssues(branch, [...root, ...path]))
        .sort((a, b) => depth(b) - depth(a))[0];
      if (best && best.length > 0) {
        out.push(...best);
        continue;
      }
    }
    out.push({ loc: [...root, ...path], type: issueType(issue), msg: issue.message });
  }
  return out;
}

function depth(issues: ValidationIssue[]): number {
  return Math.max(0, ...issues.map((i) => i.loc.length));
}

function issueType(issue: z.core.$ZodIssue): ValidationIssue['type'] {
  const absent = 'input' in issue && issue.input === undefined;
  if (issue.code === 'invalid_type') return absent ? 'missing' : 'type_error';
  if (absent && (issue.code === 'invalid_value' || issue.code === 'invalid_union'))
    return 'missing';
  // An enum or literal given a value of another JSON type ("30" for 30, null, 5 for "STANDARD").
  if (issue.code === 'invalid_value' && !issue.values.some((v) => typeof v === typeof issue.input))
    return 'type_error';
  return 'invalid';
}

export type Validated<T> = { ok: true; value: T } | { ok: false; issues: ValidationIssue[] };

/**
 * Parses a request body and reports failures as the spec's 422 locations. The input is kept on
 * each issue (reportInput) so that an absent value can be told from a value of the wrong type.
 */
export function validateBody<S extends z.ZodType>(
  schema: S,
  input: unknown,
  root: readonly (string | number)[] = ['body'],
): Validated<z.output<S>> {
  // The valid case is the common one: parse without keeping inputs, then again to explain a failure.
  const fast = schema.safeParse(input);
  if (fast.success) return { ok: true, value: fast.data };
  const result = schema.safeParse(input, { reportInput: true });
  return { ok: false, issues: toValidationIssues(result.error?.issues ?? fast.error.issues, root) };
}
