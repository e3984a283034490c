import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { KeytarCredentialStore } from '@main/connections/keychain';
import type { Core } from '@main/core';
import { Redactor, silentLogger } from '@main/logging';
import { Startup } from '@main/startup';
import { DataDirInUseError } from '@main/stores';
import { spawnFixture, type Child } from '@test/support/child-process';

/**
 * Two processes on one data folder: the second is refused with a message naming the folder,
 * whether it is the app (its startup, as Electron runs it) or the browser host, and a first
 * process that was killed leaves nothing that blocks the next start.
 */

let dataDir: string;
/** The keychain service of this test's processes: each finds the data folder's key there. */
let service: string;
const children: Child[] = [];
const startups: Startup[] = [];

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'order-desk-lock-'));
  service = `Order Desk lock test ${randomBytes(4).toString('hex')}`;
});

afterEach(async () => {
  for (const child of children.splice(0)) child.kill();
  for (const startup of startups.splice(0)) await startup.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The app's start on the folder: refused at once when another process has it. */
const openCore = async (): Promise<Core> => {
  const startup = Startup.begin({
    dataDir,
    credentials: new KeytarCredentialStore(service),
    log: silentLogger,
    redactor: new Redactor(),
  });
  startups.push(startup);
  const settled = await startup.settled();
  if (settled.phase !== 'ready') throw new Error(JSON.stringify(settled));
  return startup.ready;
};

const child = (mode: 'core' | 'browser-host') => {
  const c = spawnFixture('data-dir-child.ts', [mode, dataDir, service]);
  children.push(c);
  return c;
};

describe('one process per data folder', () => {
  it('refuses the app in a second process while a first holds the folder; a killed first leaves no lock behind', async () => {
    const first = child('core');
    expect(await first.firstLine, first.output()).toBe('ready');

    const refused = await openCore().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DataDirInUseError);
    expect((refused as Error).message).toBe(
      `Order Desk is already running with the data folder ${dataDir} (in another window, in the browser host, or as another copy of the app). Close it first, or start this one with another data folder.`,
    );

    // The browser host is refused too, and says so as its command line does.
    const host = child('browser-host');
    const exit = await host.exit;
    expect(exit.code).toBe(1);
    expect(host.output()).toContain(
      `order-desk: Order Desk is already running with the data folder ${dataDir}`,
    );

    // Killed (no chance to clean up): the operating system drops its lock with it.
    first.kill();
    expect((await first.exit).signal).toBe('SIGKILL');
    const core = await openCore();
    expect(core.listConnections()).toEqual([]);
  });

  it('refuses a browser host in another process while the app runs, and lets it start once the app has quit', async () => {
    const core = await openCore();
    const host = child('browser-host');
    expect((await host.exit).code).toBe(1);
    expect(host.output()).toContain(`already running with the data folder ${dataDir}`);

    void core;
    for (const startup of startups.splice(0)) await startup.close();
    const again = child('browser-host');
    const line = await again.firstLine;
    expect(JSON.parse(line)).toMatchObject({
      origin: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
    });
  });
});
