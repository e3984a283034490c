import { describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core';
import { HANDLER_AREAS, createIpcHandlers, type IpcHandlerDeps } from '../../src/main/ipc/handlers';
import { silentLogger } from '../../src/main/logging';
import { IPC_CHANNELS } from '../../src/shared/ipc';

// Making the handlers touches nothing of the core: each handler reads it when it is called.
const deps: IpcHandlerDeps = {
  core: {} as Core,
  host: {
    transport: 'browser',
    version: '0.0.0',
    platform: 'linux',
    openExternal: async () => undefined,
  },
  log: silentLogger,
};

describe('the IPC handlers, one module per area', () => {
  it('answer every channel of the contract with exactly one handler', () => {
    const owners = new Map<string, string[]>();
    for (const [area, make] of Object.entries(HANDLER_AREAS))
      for (const channel of Object.keys(make(deps)))
        owners.set(channel, [...(owners.get(channel) ?? []), area]);
    expect([...owners.keys()].sort()).toEqual([...IPC_CHANNELS].sort());
    for (const [channel, areas] of owners)
      expect({ channel, areas }).toEqual({ channel, areas: [areas[0]] });
  });

  it('each answer only the channels of their own area', () => {
    for (const [area, make] of Object.entries(HANDLER_AREAS))
      for (const channel of Object.keys(make(deps))) expect(channel.split('.')[0]).toBe(area);
  });

  it('combine into one table of every channel', () => {
    const handlers = createIpcHandlers(deps);
    expect(Object.keys(handlers).sort()).toEqual([...IPC_CHANNELS].sort());
    for (const channel of IPC_CHANNELS) expect(typeof handlers[channel]).toBe('function');
  });
});
