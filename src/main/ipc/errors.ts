import type { z } from 'zod';
import type { ValidationIssue } from '@shared/api';
import { fieldName } from '@shared/field-names';
import type { IpcError, IpcErrorKind, IpcFieldError } from '@shared/ipc';
import { ApiClientError } from '../api/errors';
import { isKeychainError } from '../connections/keychain-guard';
import { PatientIdClash } from '../protocols/patient-identity';
import type { Logger } from '../logging';
import { PracticeRefused } from '../practice';
import { StoreError } from '../db/errors';
import { storeFaultMessage } from '../db/fault-messages';
import { storeFaultOf } from '../db/store-faults';

/** A failure a handler reports on purpose: it crosses as is. */
export class IpcFailure extends Error {
  override readonly name = 'IpcFailure';
  constructor(
    readonly kind: IpcErrorKind,
    message: string,
    readonly fieldErrors: IpcFieldError[] = [],
  ) {
    super(message);
  }
}

export const notConnected = () =>
  new IpcFailure(
    'not-connected',
    'No connection is active. Choose the local sandbox or enter your credentials on the Connect screen.',
  );

/** zod issues as field errors, paths relative to the checked value. */
export const fieldErrorsOf = (issues: readonly z.core.$ZodIssue[]): IpcFieldError[] =>
  issues.map((issue) => ({
    path: issue.path.map((p) => (typeof p === 'number' ? p : String(p))),
    message: issue.message,
  }));

/** "Patient ID: required; website: an absolute http or https URL": fields named as on screen. */
export const describeFieldErrors = (fieldErrors: readonly IpcFieldError[]): string =>
  fieldErrors
    .slice(0, 5)
    .map((f) => (f.path.length ? `${fieldName(f.path)}: ${f.message}` : f.message))
    .join('; ');

const STORE_KINDS: Partial<Record<StoreError['code'], IpcErrorKind>> = {
  'not-found': 'not-found',
  'invalid-state': 'conflict',
  unavailable: 'storage',
};

const INTERNAL_MESSAGE =
  'Something went wrong inside Order Desk. The details are in the log file; please try again.';

/**
 * Any error as the IpcError the renderer receives. Known failures keep their kind and their
 * message (those messages are written for people and never hold a secret); a disk that refused
 * a write (full, read-only) or a damaged database is 'storage' with what happened and what to
 * do (`dataDir`: the folder the app keeps its data in, named in that message); anything
 * unexpected is logged in full (the logger redacts secrets) and crosses as 'internal' with a
 * generic message.
 */
export function toIpcError(
  error: unknown,
  channel: string,
  log: Logger,
  dataDir = 'its data folder',
): IpcError {
  const fault = storeFaultOf(error);
  if (fault) {
    log.warn(`IPC call ${channel} met a ${fault} store: ${messageOf(error)}`);
    return { kind: 'storage', message: storeFaultMessage(fault, dataDir), fieldErrors: [] };
  }
  if (error instanceof IpcFailure) {
    return { kind: error.kind, message: error.message, fieldErrors: error.fieldErrors };
  }
  if (error instanceof PracticeRefused) {
    return { kind: error.kind, message: error.message, fieldErrors: [] };
  }
  if (error instanceof PatientIdClash) {
    // The window asks the user with these facts and calls again with the answer.
    return {
      kind: 'conflict',
      message: error.message,
      fieldErrors: [{ path: ['customer', 'sourceId'], message: 'belongs to another person' }],
      patientIdClash: error.clash,
    };
  }
  if (error instanceof ApiClientError) {
    if (error.kind === 'unauthorized' && error.reason === 'keychain-unavailable') {
      return { kind: 'keychain', message: error.message, fieldErrors: [] };
    }
    // Issue 12: nothing was sent, so the server refused nothing; say what is missing and where.
    if (error.kind === 'unauthorized' && error.reason === 'missing-secret') {
      return {
        kind: 'keychain',
        message: `${error.message.replace(/ Enter it in the connection settings\.$/, '')} Nothing was sent to the server. Enter the secret again: Connection, then Edit on the saved connection.`,
        fieldErrors: [],
      };
    }
    const fieldErrors: IpcFieldError[] = error.issues.map((issue) => ({
      // The server's loc starts at the request ("body"); the call's argument is the body.
      path: issue.loc[0] === 'body' ? issue.loc.slice(1) : [...issue.loc],
      message: issue.msg ?? ISSUE_TEXT[issue.type],
    }));
    const message =
      error.kind === 'validation' && fieldErrors.length > 0
        ? `The server refused the values: ${describeFieldErrors(fieldErrors)}.`
        : error.message;
    return { kind: error.kind, message, fieldErrors };
  }
  if (isKeychainError(error)) {
    return { kind: 'keychain', message: error.message, fieldErrors: [] };
  }
  if (error instanceof StoreError) {
    const kind = STORE_KINDS[error.code];
    if (kind) return { kind, message: error.message, fieldErrors: [] };
  }
  log.error(`IPC call ${channel} failed unexpectedly`, error);
  return { kind: 'internal', message: INTERNAL_MESSAGE, fieldErrors: [] };
}

const ISSUE_TEXT: Record<ValidationIssue['type'], string> = {
  missing: 'required',
  type_error: 'wrong type of value',
  invalid: 'not a valid value',
};

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
