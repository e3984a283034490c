import type {
  Order,
  OrderStatus,
  Product,
  ProductStatus,
  Protocol,
  ProtocolRequest,
  ShippingMethod,
} from '../shared/api';
import type { Clock } from './clock';
import { ApiError } from './errors';
import { FaultConfig, type FaultInjector } from './http/faults';
import type { OrderService } from './orders-service';
import type { ProtocolService } from './protocols-service';
import type { ProductStore } from './store/products';
import { orderV102 } from './views';

/**
 * The sandbox's controls as functions, for a host running it in-process (the app's practice
 * mode): the same operations as the /_sandbox routes, for the sandbox's one partner.
 */
export interface SandboxControls {
  /** Moves an order every step up to `to` (one step when absent), each with its webhook. */
  advanceOrder(orderId: string, to?: Exclude<OrderStatus, 'NEW' | 'CANCELLED'>): Order;
  /**
   * Changes a protocol on the server as another desk would (a PUT of its content with the next
   * shipping method): the app learns of it at its next pull, or finds it when it sends its own
   * change of the same protocol (a conflict).
   */
  changeProtocol(protocolId: string): Protocol;
  /** The partner discontinues, backorders or restocks a product of the catalog. */
  setProductStatus(productId: number, status: ProductStatus): Product;
  /** Replaces the fault injection (latency, errors, dropped answers) on the /v1 requests. */
  setFaults(config: Partial<FaultConfig>): FaultConfig;
  clearFaults(): FaultConfig;
  /** The server as if gone: every connection is closed unanswered (true) or served again. */
  setUnreachable(unreachable: boolean): void;
  readonly unreachable: boolean;
  readonly faults: FaultConfig;
  /** The automatic fulfillment steps: milliseconds between them (null: none), and paused. */
  readonly fulfillment: { intervalMs: number | null; paused: boolean };
  /** Pauses or resumes the automatic steps, or changes their interval. */
  setFulfillment(change: { paused?: boolean; intervalMs?: number }): void;
  /** Every order on its way moves one step now, each with its webhook; answers how many. */
  stepOrders(): number;
}

/** A refusal of a control: the order is unknown, or it cannot move that way. */
export class SandboxControlError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'SandboxControlError';
  }
}

export function sandboxControls(deps: {
  partnerId: string;
  orders: OrderService;
  protocols: ProtocolService;
  products: ProductStore;
  faults: FaultInjector;
  clock: Clock;
}): SandboxControls {
  const refusal = <T>(run: () => T): T => {
    try {
      return run();
    } catch (error) {
      if (error instanceof ApiError) throw new SandboxControlError(error.status, error.message);
      throw error;
    }
  };
  return {
    advanceOrder: (orderId, to) =>
      refusal(() => orderV102(deps.orders.advance(deps.partnerId, orderId, to))),
    changeProtocol: (protocolId) =>
      refusal(() => {
        const current = deps.protocols.get(deps.partnerId, protocolId);
        return deps.protocols.replace(deps.partnerId, protocolId, anotherDesksEdit(current));
      }),
    setProductStatus: (productId, status) => {
      const product = deps.products.update(productId, { status }, deps.clock.now());
      if (!product) throw new SandboxControlError(404, `Product ${productId} not found`);
      return product;
    },
    setFaults: (config) => {
      deps.faults.set(FaultConfig.parse(config));
      return deps.faults.current;
    },
    clearFaults: () => {
      deps.faults.clear();
      return deps.faults.current;
    },
    setUnreachable: (unreachable) => {
      deps.faults.unreachable = unreachable;
    },
    get unreachable() {
      return deps.faults.unreachable;
    },
    get faults() {
      return deps.faults.current;
    },
    get fulfillment() {
      return deps.orders.fulfillment;
    },
    setFulfillment: (change) => deps.orders.setFulfillment(change),
    stepOrders: () => deps.orders.stepAll(),
  };
}

const NEXT_SHIPPING: Record<ShippingMethod, ShippingMethod> = {
  STANDARD: 'EXPRESS',
  EXPRESS: 'OVERNIGHT',
  OVERNIGHT: 'STANDARD',
};

/** The protocol's content as a request, with the next shipping method: another desk's edit. */
function anotherDesksEdit(p: Protocol): ProtocolRequest {
  const { address } = p.customer;
  return {
    customer: {
      ...p.customer,
      address: { ...address, line2: address.line2 ?? null },
    },
    daysSupply: p.daysSupply ?? 30,
    orderType: p.orderType ?? 'ONE_TIME',
    shippingMethod: NEXT_SHIPPING[p.shippingMethod ?? 'OVERNIGHT'],
    lineItems: p.lineItems.map((item) => ({
      productId: item.productId,
      quantity: item.quantity,
      ...(item.packDescription === undefined ? {} : { packDescription: item.packDescription }),
      administration: item.administration,
    })),
  };
}
