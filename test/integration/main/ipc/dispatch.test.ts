import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClientError } from '@main/api/errors';
import { Core } from '@main/core';
import { MemoryCredentialStore, type CredentialStore } from '@main/connections/keychain';
import { KeychainError } from '@main/connections/keychain-guard';
import { createIpcDispatcher, type IpcHost } from '@main/ipc/dispatch';
import { toIpcError } from '@main/ipc/errors';
import { forwardIpcEvents } from '@main/ipc/event-forwarding';
import { Redactor, silentLogger, type Logger } from '@main/logging';
import { StoreError } from '@main/db/errors';
import { isIpcChannel, isReadChannel, type IpcResult } from '@shared/ipc';
import { createOrderDeskApi } from '@shared/ipc-bridge';
import { recordingLogger } from '@test/support/recording-logger';
import { startTestSandbox } from '@test/support/sandbox';
import { tablesRead, traced } from '@test/support/sql-trace';
import { registerContractSuite, type TracedRead } from './contract-suite';
import { FakeUpdater } from '@test/support/fake-updater';
import { TEST_KEY } from '@test/support/store-key';
import { openedStartup } from '@main/startup';

const electronHost = (opened: string[], savedPdfs: string[] = []): IpcHost => ({
  transport: 'electron',
  version: '1.2.3',
  platform: process.platform,
  openExternal: async (url) => {
    opened.push(url);
  },
  // The save dialog answered as a user would: a name starting "cancel" is the dialog closed.
  savePdf: async (fileName) => {
    if (fileName.startsWith('cancel')) return { saved: false };
    savedPdfs.push(fileName);
    return { saved: true };
  },
});

// The Electron path: the dispatcher ipcMain.handle calls, with Electron's structured clone.
registerContractSuite('electron', async ({ dataDir, credentials, embeddedDb }) => {
  const updater = new FakeUpdater();
  const core = await Core.open({
    key: TEST_KEY,
    dataDir,
    credentials,
    log: silentLogger,
    redactor: new Redactor(),
    embeddedDb,
    updater,
  });
  const openedUrls: string[] = [];
  const savedPdfs: string[] = [];
  const dispatcher = createIpcDispatcher({
    startup: openedStartup(core),
    host: electronHost(openedUrls, savedPdfs),
    log: silentLogger,
  });
  const reads: TracedRead[] = [];
  const invoke = async (channel: unknown, args: unknown) => {
    const dispatch = () => dispatcher.dispatch(structuredClone(channel), structuredClone(args));
    if (!isIpcChannel(channel) || !isReadChannel(channel)) return structuredClone(await dispatch());
    // A read's SQL, on the app's stores (not the embedded sandbox's, which serves it over HTTP).
    const { value, statements } = await traced(dispatch);
    const tables = statements.filter((s) => s.db.name !== embeddedDb).flatMap(tablesRead);
    reads.push({ channel, ok: (value as IpcResult<unknown>).ok, tables: [...new Set(tables)] });
    return structuredClone(value);
  };
  const subscribe = (listener: (event: string, payload: unknown) => void) =>
    forwardIpcEvents(openedStartup(core), (event, payload) =>
      listener(event, structuredClone(payload)),
    );
  return {
    api: createOrderDeskApi({ invoke, subscribe }),
    raw: invoke,
    rawEvents: subscribe,
    core,
    openedUrls,
    savedPdfs,
    updater,
    reads,
    close: () => core.close(),
  };
});

describe('IPC errors', () => {
  const dirs: string[] = [];
  const cores: Core[] = [];
  afterEach(async () => {
    for (const core of cores.splice(0)) await core.close().catch(() => undefined);
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const openCore = async (credentials: CredentialStore, log: Logger = silentLogger) => {
    const dir = mkdtempSync(join(tmpdir(), 'order-desk-ipc-errors-'));
    dirs.push(dir);
    const core = await Core.open({
      key: TEST_KEY,
      dataDir: dir,
      credentials,
      log,
      redactor: new Redactor(),
    });
    cores.push(core);
    return core;
  };

  it('maps a server-side 422 to validation with field errors relative to the argument', () => {
    // The sandbox validates PATCH /partners/settings with the same schema as the contract, so no
    // argument the contract accepts draws a 422 from it: the mapping is checked on the error.
    const error = new ApiClientError({
      kind: 'validation',
      status: 422,
      message: 'The server refused the request (422).',
      issues: [
        { loc: ['body', 'supportEmail'], type: 'invalid', msg: 'not a deliverable address' },
        { loc: ['body', 'lineItems', 0, 'quantity'], type: 'missing' },
      ],
    });
    expect(toIpcError(error, 'settings.update', silentLogger)).toEqual({
      kind: 'validation',
      message:
        'The server refused the values: supportEmail: not a deliverable address; Product 1 quantity: required.',
      fieldErrors: [
        { path: ['supportEmail'], message: 'not a deliverable address' },
        { path: ['lineItems', 0, 'quantity'], message: 'required' },
      ],
    });
  });

  it('keeps the kind of known failures and hides the unexpected behind a generic message', () => {
    const lines: string[] = [];
    const log = recordingLogger(lines);
    const keychain = new ApiClientError({
      kind: 'unauthorized',
      reason: 'keychain-unavailable',
      message: 'The system keychain is unavailable.',
    });
    expect(toIpcError(keychain, 'c', log).kind).toBe('keychain');
    expect(toIpcError(new KeychainError('locked'), 'c', log).kind).toBe('keychain');
    expect(toIpcError(new StoreError('invalid-state', 'Not now.'), 'c', log)).toEqual({
      kind: 'conflict',
      message: 'Not now.',
      fieldErrors: [],
    });
    for (const kind of ['not-found', 'conflict', 'network', 'timeout', 'rate-limited'] as const) {
      expect(toIpcError(new ApiClientError({ kind, message: 'm' }), 'c', log).kind).toBe(kind);
    }
    const internal = toIpcError(new Error('token abc-secret-detail'), 'app.state', log);
    expect(internal.kind).toBe('internal');
    expect(internal.message).not.toContain('abc-secret-detail');
    expect(lines).toEqual(['IPC call app.state failed unexpectedly: token abc-secret-detail']);
  });

  it('says in plain words that the disk is full or read-only, naming the data folder, never "internal"', () => {
    const lines: string[] = [];
    const log = recordingLogger(lines);
    const sqlite = (code: string, message: string) => Object.assign(new Error(message), { code });
    const full = toIpcError(sqlite('SQLITE_FULL', 'database or disk is full'), 'c', log, '/data');
    expect(full).toEqual({
      kind: 'storage',
      message: expect.stringMatching(
        /^The disk is full: Order Desk could not save this\. Free some space on the disk that holds \/data, then try again; nothing you saved before is lost\./,
      ),
      fieldErrors: [],
    });
    for (const error of [
      sqlite('SQLITE_READONLY', 'attempt to write a readonly database'),
      sqlite('EROFS', 'read-only file system'),
    ]) {
      const readOnly = toIpcError(error, 'c', log, '/data');
      expect(readOnly.kind).toBe('storage');
      expect(readOnly.message).toMatch(/cannot write to \/data .*read-only/);
    }
    const damaged = toIpcError(
      sqlite('SQLITE_CORRUPT', 'database disk image is malformed'),
      'c',
      log,
      '/data',
    );
    expect(damaged.message).toMatch(
      /found its local database in \/data damaged. It keeps the damaged file/,
    );
    expect(lines.every((l) => !l.includes('failed unexpectedly'))).toBe(true);
  });

  it('never rejects: a failure inside a handler becomes internal, and is logged', async () => {
    const lines: string[] = [];
    const log = recordingLogger(lines);
    const core = await openCore(new MemoryCredentialStore(), log);
    const dispatcher = createIpcDispatcher({
      startup: openedStartup(core),
      host: electronHost([]),
      log,
    });
    core.app.close(); // every query now throws
    const result = await dispatcher.dispatch('connections.list', {});
    expect(result).toEqual({
      ok: false,
      error: { kind: 'internal', message: expect.stringMatching(/log file/), fieldErrors: [] },
    });
    expect(lines.join('\n')).toMatch(/connections\.list failed unexpectedly/);
  });

  it('reports a keychain that cannot save the secret as keychain', async () => {
    const partner = await startTestSandbox();
    try {
      const broken: CredentialStore = {
        get: async () => null,
        set: async () => {
          throw new Error('Cannot autolaunch D-Bus without X11 $DISPLAY');
        },
        delete: async () => false,
      };
      const core = await openCore(broken);
      const dispatcher = createIpcDispatcher({
        startup: openedStartup(core),
        host: electronHost([]),
        log: silentLogger,
      });
      const result = await dispatcher.dispatch('connections.connect', {
        kind: 'partner-sandbox',
        label: 'Partner',
        baseUrl: partner.baseUrl,
        authUrl: partner.authUrl,
        clientId: partner.clientId,
        clientSecret: partner.clientSecret,
      });
      expect(result).toMatchObject({ ok: false, error: { kind: 'keychain' } });
      expect(JSON.stringify(result)).toContain('D-Bus');
      expect(JSON.stringify(result)).not.toContain(partner.clientSecret);
      expect(core.listConnections()).toEqual([]);
    } finally {
      await partner.close();
    }
  });
});
