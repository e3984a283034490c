import type { Clock } from '../clock';
import type { FaultInjector } from '../http/faults';
import type { OrderService } from '../orders-service';
import type { ProtocolService } from '../protocols-service';
import type { DeliveryStore } from '../store/deliveries';
import type { PartnerStore } from '../store/partners';
import type { ProductStore } from '../store/products';

export interface RouteContext {
  clock: Clock;
  orders: OrderService;
  protocols: ProtocolService;
  products: ProductStore;
  partners: PartnerStore;
  deliveries: DeliveryStore;
  faults: FaultInjector;
  tokenTtlSeconds: number;
  /** Whether webhookUrl may name a loopback host (SandboxOptions.allowLoopbackWebhooks). */
  allowLoopbackWebhooks: boolean;
}
