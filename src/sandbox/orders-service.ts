import {
  CreateOrderRequest,
  CreateOrderRequestV101,
  checkLineItemsAgainstCatalog,
  orderTypeFromV101,
  validateBody,
  type Customer,
  type CustomerRequest,
  type ListOrdersQuery,
  type Order,
  type OrderStatus,
  type ValidationIssue,
} from '../shared/api';
import { isoAt, type Clock } from './clock';
import { conflict, notFound, unprocessable } from './errors';
import { applyStatus, isAhead, isFinal, nextStatus } from './fulfillment/lifecycle';
import { priceLineItems, pricingTotals } from './priced-lines';
import type { Db } from './store/db';
import type { DeliveryStore } from './store/deliveries';
import { GroupCommit } from './store/group-commit';
import { newId } from './store/ids';
import type { OrderStore } from './store/orders';
import type { PartnerStore } from './store/partners';
import type { ProductStore } from './store/products';

export type ApiVersion = '1.0.1' | '1.0.2';

/** A committed new order, and the JSON text it is stored as (serialised once, see orderV102Text). */
export interface CreatedOrder {
  order: Order;
  json: string;
}

export interface OrderServiceDeps {
  db: Db;
  clock: Clock;
  orders: OrderStore;
  products: ProductStore;
  partners: PartnerStore;
  deliveries: DeliveryStore;
  /** Real milliseconds between automatic fulfillment steps; null: no automatic steps. */
  stepIntervalMs: number | null;
  /** Called after a write that scheduled a step or queued a webhook. */
  onScheduled: () => void;
}

export const customerFromRequest = (c: CustomerRequest): Customer => ({
  sourceId: c.sourceId,
  firstName: c.firstName,
  lastName: c.lastName,
  email: c.email ?? null,
  phone: c.phone ?? null,
  address: {
    line1: c.address.line1,
    line2: c.address.line2 ?? null,
    city: c.address.city,
    state: c.address.state,
    zipCode: c.address.zipCode,
  },
});

/** Turns catalog problems into 422 locations; throws when there are any. */
export function assertCatalogRules(
  problems: ReturnType<typeof checkLineItemsAgainstCatalog>,
): void {
  if (problems.length === 0) return;
  const issues: ValidationIssue[] = problems.map((p) => ({
    loc: ['body', ...p.path],
    type: p.type,
    msg: p.message,
  }));
  throw unprocessable(issues);
}

/** Orders: creation and pricing, cancel, and the fulfillment steps with their webhooks. */
export class OrderService {
  private readonly writes: GroupCommit;
  /** Milliseconds between automatic steps (null: none); a control may change it. */
  private intervalMs: number | null;
  /** When the automatic steps were paused (a control), or null while they run. */
  private pausedAt: number | null = null;

  constructor(private readonly deps: OrderServiceDeps) {
    this.writes = new GroupCommit(deps.db);
    this.intervalMs = deps.stepIntervalMs;
  }

  /** The automatic steps: their interval (null: none) and whether they are paused. */
  get fulfillment(): { intervalMs: number | null; paused: boolean } {
    return { intervalMs: this.intervalMs, paused: this.pausedAt !== null };
  }

  /**
   * Sandbox control: pauses or resumes the automatic steps, or changes their interval. A pause
   * holds every scheduled step (resumed, each waits what it had left); a new interval scales
   * what each scheduled step has left to wait.
   */
  setFulfillment({ paused, intervalMs }: { paused?: boolean; intervalMs?: number }): void {
    const now = this.deps.clock.now();
    this.deps.db.transaction(() => {
      if (intervalMs !== undefined && intervalMs !== this.intervalMs) {
        if (this.intervalMs !== null)
          this.deps.orders.rescaleSteps(this.pausedAt ?? now, intervalMs / this.intervalMs);
        this.intervalMs = intervalMs;
      }
      if (paused === true && this.pausedAt === null) this.pausedAt = now;
      if (paused === false && this.pausedAt !== null) {
        this.deps.orders.shiftSteps(now - this.pausedAt);
        this.pausedAt = null;
      }
    })();
    this.deps.onScheduled();
  }

  /** Sandbox control: every order on its way moves one step now, paused or not. */
  stepAll(limit = 10_000): number {
    const moved = this.deps.db.transaction(() => {
      const scheduled = this.deps.orders.scheduled(limit);
      for (const { partnerId, order } of scheduled) this.step(partnerId, order);
      return scheduled.length;
    })();
    if (moved > 0) this.deps.onScheduled();
    return moved;
  }

  /**
   * Validates, prices and stores a new order; resolves once it has committed, with the order and
   * the JSON text it was stored as. Creates that arrive in one turn of the event loop commit
   * together (GroupCommit), with their webhooks.
   */
  async create(partnerId: string, body: unknown, version: ApiVersion): Promise<CreatedOrder> {
    const { products, partners, clock } = this.deps;
    const request = this.parseCreate(body, version);
    assertCatalogRules(
      checkLineItemsAgainstCatalog(request.lineItems, (id) => products.get(id), {
        packDescriptionRequiredForPack: true,
      }),
    );
    const settings = partners.settings(partnerId);
    const { pricing, lineItems } = priceLineItems(
      request,
      (id) => products.get(id)!,
      settings.discountValue,
      // An external line keeps only a packDescription the client sent; the 1.0.1 view shows the
      // catalog's otherwise. Without one, the stored text is also the 1.0.2 answer (orderV102).
      (li, p) => (p.external ? li.packDescription : (li.packDescription ?? p.packDescription)),
    );
    const now = clock.now();
    const createdAt = isoAt(now);
    const order: Order = {
      id: newId('ord', now),
      discount: pricing.discount,
      daysSupply: request.daysSupply,
      orderType: request.orderType,
      shippingMethod: request.shippingMethod,
      status: 'NEW',
      fulfillmentInfo: null,
      lineItems,
      customer: customerFromRequest(request.customer),
      ...pricingTotals(pricing),
      createdAt,
      updatedAt: createdAt,
    };
    const nextStepAt = this.nextStepAt(order.status, now);
    const json = JSON.stringify(order);
    let queuedWebhook = false;
    await this.writes.run(() => {
      this.deps.orders.insert(partnerId, order, nextStepAt, json);
      queuedWebhook = this.notify(partnerId, order, now);
    });
    // Re-arm the timers only when this order scheduled a step or queued a webhook.
    if (nextStepAt !== null || queuedWebhook) this.deps.onScheduled();
    return { order, json };
  }

  get(partnerId: string, orderId: string): Order {
    const order = this.deps.orders.get(partnerId, orderId);
    if (!order) throw notFound(`Order ${orderId} not found`);
    return order;
  }

  list(partnerId: string, query: ListOrdersQuery) {
    return this.deps.orders.list(partnerId, query);
  }

  /** Cancels an order in NEW; any other state is a 409 that says which state it is in. */
  cancel(partnerId: string, orderId: string): Order {
    const order = this.deps.db.transaction(() => {
      const current = this.get(partnerId, orderId);
      if (current.status !== 'NEW') {
        throw conflict(
          current.status === 'CANCELLED'
            ? `Order ${orderId} is already cancelled`
            : `Order ${orderId} is ${current.status}: only an order in NEW can be cancelled`,
        );
      }
      const now = this.deps.clock.now();
      const cancelled = applyStatus(current, 'CANCELLED', now);
      this.deps.orders.update(cancelled, null);
      this.notify(partnerId, cancelled, now);
      return cancelled;
    })();
    this.deps.onScheduled();
    return order;
  }

  /** Sandbox control: one step, or every step up to `to`, each with its webhook. */
  advance(partnerId: string, orderId: string, to?: OrderStatus): Order {
    const order = this.deps.db.transaction(() => {
      let order = this.get(partnerId, orderId);
      if (isFinal(order.status))
        throw conflict(`Order ${orderId} is ${order.status} and cannot move any further`);
      const target = to ?? nextStatus(order.status)!;
      if (!isAhead(order.status, target)) {
        throw conflict(
          `Order ${orderId} is ${order.status}: ${target} is not ahead of it on the fulfillment chain`,
        );
      }
      while (order.status !== target) order = this.step(partnerId, order);
      return order;
    })();
    this.deps.onScheduled();
    return order;
  }

  /** Takes every due order one step. Returns how many moved. */
  stepDue(limit = 500): number {
    if (this.pausedAt !== null) return 0;
    const now = this.deps.clock.now();
    const moved = this.deps.db.transaction(() => {
      const due = this.deps.orders.due(now, limit);
      for (const { partnerId, order } of due) this.step(partnerId, order);
      return due.length;
    })();
    if (moved > 0) this.deps.onScheduled();
    return moved;
  }

  private step(partnerId: string, order: Order): Order {
    const now = this.deps.clock.now();
    const to = nextStatus(order.status);
    if (!to) return order;
    const next = applyStatus(order, to, now);
    this.deps.orders.update(next, this.nextStepAt(next.status, now));
    this.notify(partnerId, next, now);
    return next;
  }

  private nextStepAt(status: OrderStatus, now: number): number | null {
    const interval = this.intervalMs;
    // While paused, counted from the pause: resuming shifts it by the pause's length.
    return interval === null || isFinal(status) ? null : (this.pausedAt ?? now) + interval;
  }

  /** Queues the status webhook, if the partner has a webhook URL; DELIVERED has none. True when queued. */
  private notify(partnerId: string, order: Order, now: number): boolean {
    if (order.status === 'DELIVERED') return false;
    if (!this.deps.partners.settings(partnerId).webhookUrl) return false;
    this.deps.deliveries.enqueue(partnerId, order, now);
    return true;
  }

  private parseCreate(body: unknown, version: ApiVersion): CreateOrderRequest {
    if (version === '1.0.2') {
      const parsed = validateBody(CreateOrderRequest, body);
      if (!parsed.ok) throw unprocessable(parsed.issues);
      return parsed.value;
    }
    const parsed = validateBody(CreateOrderRequestV101, body);
    if (!parsed.ok) throw unprocessable(parsed.issues);
    const { zip, ...address } = parsed.value.customer.address;
    return {
      ...parsed.value,
      orderType: orderTypeFromV101(parsed.value.orderType),
      customer: { ...parsed.value.customer, address: { ...address, zipCode: zip } },
    };
  }
}
