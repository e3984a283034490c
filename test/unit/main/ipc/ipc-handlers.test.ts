import { describe, expect, it } from 'vitest';
import type { Core } from '@main/core';
import {
  HANDLER_AREAS,
  createCoreHandlers,
  createIpcHandlers,
  type IpcHandlerDeps,
} from '@main/ipc/handlers';
import { startupHandlers } from '@main/ipc/handlers/startup';
import { silentLogger } from '@main/logging';
import { openedStartup } from '@main/startup';
import { IPC_CHANNELS } from '@shared/ipc';

// Making the handlers touches nothing of the core: each handler reads it when it is called.
const deps: IpcHandlerDeps = {
  core: { dataDir: '/data' } as Core,
  host: {
    transport: 'browser',
    version: '0.0.0',
    platform: 'linux',
    openExternal: async () => undefined,
  },
  log: silentLogger,
};
const startup = openedStartup(deps.core);
const areas = { ...HANDLER_AREAS, startup: () => startupHandlers(startup) };

describe('the IPC handlers, one module per area', () => {
  it('answer every channel of the contract with exactly one handler', () => {
    const owners = new Map<string, string[]>();
    for (const [area, make] of Object.entries(areas))
      for (const channel of Object.keys(make(deps)))
        owners.set(channel, [...(owners.get(channel) ?? []), area]);
    expect([...owners.keys()].sort()).toEqual([...IPC_CHANNELS].sort());
    for (const [channel, areas] of owners)
      expect({ channel, areas }).toEqual({ channel, areas: [areas[0]] });
  });

  it('each answer only the channels of their own area', () => {
    for (const [area, make] of Object.entries(areas))
      for (const channel of Object.keys(make(deps))) expect(channel.split('.')[0]).toBe(area);
  });

  it('combine into one table of every channel: the core’s and the startup’s', () => {
    const core = createCoreHandlers(deps);
    expect(Object.keys(core).sort()).toEqual(
      IPC_CHANNELS.filter((channel) => !channel.startsWith('startup.')).sort(),
    );
    const handlers = createIpcHandlers({ startup, host: deps.host, log: deps.log });
    expect(Object.keys(handlers).sort()).toEqual([...IPC_CHANNELS].sort());
    for (const channel of IPC_CHANNELS) expect(typeof handlers[channel]).toBe('function');
  });
});
