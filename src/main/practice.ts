import { z } from 'zod';
import type { AppOrder } from '@shared/api';
import type {
  PracticeAdvance,
  PracticeFulfillment,
  PracticeSpeed,
  PracticeStep,
  PracticeProductChange,
  PracticeProductStatus,
  PracticeServer,
  PracticeProtocolChange,
  PracticeState,
} from '@shared/practice-views';
import type { ActiveConnection } from './active-connection';
import { SandboxControlError, type SandboxControls } from './embedded-sandbox';
import { SETTING_KEYS } from './db/settings-repo';
import type { AppStore } from './stores/app-store';

/** A practice action refused, and why; the IPC layer (ipc/errors.ts) passes both on as they are. */
export class PracticeRefused extends Error {
  override readonly name = 'PracticeRefused';
  constructor(
    readonly kind: 'not-found' | 'conflict' | 'not-connected' | 'unavailable',
    message: string,
  ) {
    super(message);
  }
}

export interface PracticeDeps {
  app: Pick<AppStore, 'connections' | 'settings'>;
  active: Pick<ActiveConnection, 'session' | 'embeddedSandbox'>;
}

/** How late the slow practice server answers. */
export const SLOW_MS = 3000;

const NOT_EMBEDDED =
  'Practice mode is only for the built-in sandbox: connect to the local sandbox on the Connection screen first. Its controls are never offered on a partner or production connection.';
const NOT_ON = 'Practice mode is off: switch it on on the Connection screen first.';

/** What each behaviour injects on every /v1 request. */
const SERVER_FAULTS = {
  slow: { latencyMs: SLOW_MS },
  failing: { errorRate: 1, errorStatus: 503 },
} as const;

/** Milliseconds between the practice server's own steps, by speed. */
export const SPEED_MS: Record<PracticeSpeed, number> = {
  slow: 5 * 60_000,
  normal: 60_000,
  fast: 15_000,
};

function fulfillmentOf(controls: SandboxControls): PracticeFulfillment {
  const { paused, intervalMs } = controls.fulfillment;
  const speed = (Object.keys(SPEED_MS) as PracticeSpeed[]).find((s) => SPEED_MS[s] === intervalMs);
  return { paused, speed: speed ?? 'normal' };
}

function serverOf(controls: SandboxControls): PracticeServer {
  const faults = controls.faults;
  if (faults.errorRate > 0) return 'failing';
  return faults.latencyMs > 0 ? 'slow' : 'normal';
}

/** A control the sandbox refuses (unknown, or not possible now), as the failure the window shows. */
function refused<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (!(error instanceof SandboxControlError)) throw error;
    throw new PracticeRefused(error.status === 404 ? 'not-found' : 'conflict', error.message);
  }
}

/**
 * Practice mode: the built-in sandbox's own controls (sandbox/controls.ts), called in-process, so
 * nothing but the sandbox on this computer is ever driven. Refused unless the active connection
 * is the built-in sandbox; the controls also need practice mode on.
 */
export class Practice {
  constructor(private readonly d: PracticeDeps) {}

  private get available(): boolean {
    return this.d.app.connections.active()?.kind === 'embedded';
  }

  private get enabled(): boolean {
    return this.available && this.d.app.settings.get(SETTING_KEYS.practice, z.boolean(), false);
  }

  async state(): Promise<PracticeState> {
    const controls = this.available ? await this.sandbox() : null;
    const enabled = this.enabled;
    return {
      available: this.available,
      enabled,
      offline: enabled && (controls?.unreachable ?? false),
      server: enabled && controls ? serverOf(controls) : 'normal',
      fulfillment:
        enabled && controls ? fulfillmentOf(controls) : { paused: false, speed: 'normal' },
    };
  }

  async setEnabled(enabled: boolean): Promise<PracticeState> {
    if (!this.available) throw new PracticeRefused('conflict', NOT_EMBEDDED);
    if (!enabled) {
      await this.setUnreachable(false);
      const controls = await this.sandbox();
      controls?.clearFaults();
      controls?.setFulfillment({ paused: false, intervalMs: SPEED_MS.normal });
    }
    this.d.app.settings.set(SETTING_KEYS.practice, enabled);
    return this.state();
  }

  async advanceOrder({ orderId, to }: PracticeAdvance): Promise<AppOrder> {
    const controls = await this.controls();
    if (controls.unreachable)
      throw new PracticeRefused(
        'unavailable',
        'The practice server is offline: bring it back online before moving an order.',
      );
    refused(() => controls.advanceOrder(orderId, to));
    // The order as the app now knows it: read back from the sandbox, as any refresh.
    const session = this.d.active.session;
    if (!session) throw new PracticeRefused('not-connected', NOT_EMBEDDED);
    return session.orders.refreshOrder(orderId);
  }

  /** Another desk's edit on the server; allowed offline (the other desk is still online). */
  async changeProtocol(protocolId: string): Promise<PracticeProtocolChange> {
    const controls = await this.controls();
    const changed = refused(() => controls.changeProtocol(protocolId));
    return { protocolId: changed.id, shippingMethod: changed.shippingMethod! };
  }

  /** The partner's change of a product; the catalog is read again at once when online. */
  async setProductStatus(
    productId: number,
    status: PracticeProductStatus,
  ): Promise<PracticeProductChange> {
    const controls = await this.controls();
    const product = refused(() => controls.setProductStatus(productId, status));
    const session = this.d.active.session;
    if (session?.connectivity.online) await session.sync.syncNow();
    return { productId: product.id, name: product.name, status: product.status };
  }

  /** Pauses or resumes the practice server's own steps, or changes their speed. */
  async setFulfillment(choice: {
    paused?: boolean | undefined;
    speed?: PracticeSpeed | undefined;
  }): Promise<PracticeState> {
    const controls = await this.controls();
    controls.setFulfillment({
      ...(choice.paused !== undefined ? { paused: choice.paused } : {}),
      ...(choice.speed !== undefined ? { intervalMs: SPEED_MS[choice.speed] } : {}),
    });
    return this.state();
  }

  /**
   * Every order on its way moves one step now; the poller reads them (every 12 s while the
   * window is shown), so the queue follows as it would a real partner.
   */
  async stepOrders(): Promise<PracticeStep> {
    const controls = await this.controls();
    if (controls.unreachable)
      throw new PracticeRefused(
        'unavailable',
        'The practice server is offline: bring it back online before moving orders.',
      );
    return { moved: controls.stepOrders() };
  }

  /** Slow or failing through the sandbox's fault injection, so the app's own handling shows. */
  async setServer(server: PracticeServer): Promise<PracticeState> {
    const controls = await this.controls();
    if (server === 'normal') controls.clearFaults();
    else controls.setFaults(SERVER_FAULTS[server]);
    return this.state();
  }

  async setOffline(offline: boolean): Promise<PracticeState> {
    await this.controls();
    await this.setUnreachable(offline);
    // The app finds out as it would of a real outage: its next request (a probe now) fails.
    await this.d.active.session?.connectivity.probeNow();
    return this.state();
  }

  private async setUnreachable(unreachable: boolean): Promise<void> {
    (await this.sandbox())?.setUnreachable(unreachable);
  }

  /** The controls, or the refusal saying why they are not offered. */
  private async controls(): Promise<SandboxControls> {
    if (!this.available) throw new PracticeRefused('conflict', NOT_EMBEDDED);
    if (!this.enabled) throw new PracticeRefused('conflict', NOT_ON);
    const controls = await this.sandbox();
    if (!controls) throw new PracticeRefused('unavailable', 'The built-in sandbox is not running.');
    return controls;
  }

  private async sandbox(): Promise<SandboxControls | null> {
    const embedded = await this.d.active.embeddedSandbox?.catch(() => null);
    return embedded?.sandbox.controls ?? null;
  }
}
