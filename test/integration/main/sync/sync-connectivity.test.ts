import { afterEach, describe, expect, it } from 'vitest';
import { CoreEventBus } from '@main/core-event-bus';
import { Connectivity, httpProbe } from '@main/sync/connectivity';
import { waitFor } from '@test/support/wait';
import {
  manualTimers,
  networkSwitch,
  startSyncHarness,
  type SyncHarness,
} from '@test/support/sync-harness';

let h: SyncHarness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

describe('connectivity against the sandbox', () => {
  it('is offline while the server is unreachable and online after, one event per change', async () => {
    h = await startSyncHarness();
    const { client, connectivity, net, timers } = h;
    await client.listShippingMethods();
    expect(connectivity.online).toBe(true);
    expect(h.eventsOf('connectivity')).toEqual([]); // no change, no event

    net.state.offline = true;
    await expect(client.listShippingMethods()).rejects.toMatchObject({ kind: 'network' });
    await expect(client.getProtocol('prt_x')).rejects.toMatchObject({ kind: 'network' });
    expect(connectivity.online).toBe(false);
    let online = false;
    const back = connectivity.whenOnline().then(() => (online = true));

    // Probes fail while the network is down: 2 s, then 4 s, then 8 s.
    timers.advance(2_000);
    await waitFor(() => timers.pending().length === 1, 5_000, 'second probe armed');
    expect(connectivity.nextProbeInMs).toBe(4_000);
    timers.advance(4_000);
    await waitFor(() => timers.pending().length === 1, 5_000, 'third probe armed');
    expect(connectivity.nextProbeInMs).toBe(8_000);
    expect(online).toBe(false);

    net.state.offline = false;
    timers.advance(8_000);
    await back;
    expect(connectivity.online).toBe(true);
    const events = h.eventsOf('connectivity');
    expect(events.map((e) => e.online)).toEqual([false, true]);
    expect(events[1]!.since).toBe(connectivity.state.since);
    expect(timers.pending()).toEqual([]); // no probing while online

    // Real traffic keeps it online without new events.
    await client.listShippingMethods();
    expect(h.eventsOf('connectivity')).toHaveLength(2);
  });

  it('the probe counts any HTTP answer as reachable, and a refused connection as not', async () => {
    h = await startSyncHarness();
    const net = networkSwitch();
    const probe = httpProbe(`${h.sandbox.authUrl}/no-such-page`, { fetch: net });
    expect(await probe()).toBe(true);
    net.state.offline = true;
    expect(await probe()).toBe(false);
    await h.sandbox.close();
    expect(await httpProbe(h.sandbox.authUrl)()).toBe(false);
  });
});

describe('connectivity: backoff of the probe', () => {
  it('doubles from 2 s to at most 60 s, and starts again at 2 s after a recovery', async () => {
    const bus = new CoreEventBus();
    const timers = manualTimers();
    let reachable = false;
    let probes = 0;
    const c = new Connectivity({
      bus,
      timers,
      probe: async () => {
        probes++;
        return reachable;
      },
    });
    const events: boolean[] = [];
    bus.on('connectivity', (e) => events.push(e.online));
    c.report(false);
    c.report(false);
    for (let i = 0; i < 7; i++) {
      timers.advance(timers.pending()[0]!.ms);
      await waitFor(() => timers.pending().length === 1, 1_000, `probe ${i + 2} armed`);
    }
    expect(timers.scheduled).toEqual([2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000, 60_000]);
    expect(probes).toBe(7);
    reachable = true;
    timers.advance(60_000);
    await waitFor(() => c.online, 1_000, 'back online');
    c.report(false);
    expect(timers.pending()).toEqual([expect.objectContaining({ ms: 2_000 })]);
    expect(events).toEqual([false, true, false]);
    c.stop();
    expect(timers.pending()).toEqual([]);
  });

  it('a failed probeNow while online reports the loss', async () => {
    const bus = new CoreEventBus();
    const timers = manualTimers();
    const c = new Connectivity({ bus, timers, probe: async () => false });
    expect(await c.probeNow()).toBe(false);
    expect(c.online).toBe(false);
    expect(timers.pending()).toEqual([expect.objectContaining({ ms: 2_000 })]);
    c.stop();
  });
});
