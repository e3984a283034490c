import { z } from 'zod';
import { PatientIdClashView } from '../patient-identity-views';

/** Why a call failed; 'invalid-arguments' is the contract refusing the call before any work. */
export const IpcErrorKind = z.enum([
  'invalid-arguments',
  'validation',
  'bad-request',
  'not-found',
  'conflict',
  'unauthorized',
  'rate-limited',
  'unavailable',
  'network',
  'timeout',
  'server',
  'invalid-response',
  'not-connected',
  /** This computer's disk refused the write (full, read-only), or the local database is damaged. */
  'storage',
  'keychain',
  'internal',
]);
export type IpcErrorKind = z.infer<typeof IpcErrorKind>;

export const IpcFieldError = z.object({
  /** Where, as a path into the call's argument (e.g. ["supportEmail"]). */
  path: z.array(z.union([z.string(), z.number()])),
  message: z.string(),
});
export type IpcFieldError = z.infer<typeof IpcFieldError>;

/** A failure as the renderer receives it: a message for people, never a secret. */
export const IpcError = z.object({
  kind: IpcErrorKind,
  message: z.string(),
  fieldErrors: z.array(IpcFieldError).default([]),
  /** A save stopped because its Patient ID already names another person (kind 'conflict'). */
  patientIdClash: PatientIdClashView.optional(),
});
export type IpcError = z.infer<typeof IpcError>;

/** What every call answers: its value, or why it failed. */
export const IpcResult = <T extends z.ZodType>(value: T) =>
  z.discriminatedUnion('ok', [
    z.object({ ok: z.literal(true), value }),
    z.object({ ok: z.literal(false), error: IpcError }),
  ]);
export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: IpcError };
