import { z } from 'zod';
import type { AppOrder } from '@shared/api';
import type {
  PracticeAdvance,
  PracticeProductChange,
  PracticeProductStatus,
  PracticeProtocolChange,
  PracticeState,
} from '@shared/practice-views';
import type { ActiveConnection } from './active-connection';
import { SandboxControlError, type SandboxControls } from './embedded-sandbox';
import { IpcFailure } from './ipc/errors';
import { SETTING_KEYS } from './store/settings-repo';
import type { AppStore } from './stores/app-store';

export interface PracticeDeps {
  app: Pick<AppStore, 'connections' | 'settings'>;
  active: Pick<ActiveConnection, 'session' | 'embeddedSandbox'>;
}

const NOT_EMBEDDED =
  'Practice mode is only for the built-in sandbox: connect to the local sandbox on the Connection screen first. Its controls are never offered on a partner or production connection.';
const NOT_ON = 'Practice mode is off: switch it on on the Connection screen first.';

/** A control the sandbox refuses (unknown, or not possible now), as the failure the window shows. */
function refused<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (!(error instanceof SandboxControlError)) throw error;
    throw new IpcFailure(error.status === 404 ? 'not-found' : 'conflict', error.message);
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
    return {
      available: this.available,
      enabled: this.enabled,
      offline: this.enabled && (controls?.unreachable ?? false),
    };
  }

  async setEnabled(enabled: boolean): Promise<PracticeState> {
    if (!this.available) throw new IpcFailure('conflict', NOT_EMBEDDED);
    if (!enabled) await this.setUnreachable(false);
    this.d.app.settings.set(SETTING_KEYS.practice, enabled);
    return this.state();
  }

  async advanceOrder({ orderId, to }: PracticeAdvance): Promise<AppOrder> {
    const controls = await this.controls();
    if (controls.unreachable)
      throw new IpcFailure(
        'unavailable',
        'The practice server is offline: bring it back online before moving an order.',
      );
    refused(() => controls.advanceOrder(orderId, to));
    // The order as the app now knows it: read back from the sandbox, as any refresh.
    const session = this.d.active.session;
    if (!session) throw new IpcFailure('not-connected', NOT_EMBEDDED);
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
    if (!this.available) throw new IpcFailure('conflict', NOT_EMBEDDED);
    if (!this.enabled) throw new IpcFailure('conflict', NOT_ON);
    const controls = await this.sandbox();
    if (!controls) throw new IpcFailure('unavailable', 'The built-in sandbox is not running.');
    return controls;
  }

  private async sandbox(): Promise<SandboxControls | null> {
    const embedded = await this.d.active.embeddedSandbox?.catch(() => null);
    return embedded?.sandbox.controls ?? null;
  }
}
