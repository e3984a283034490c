import type { z } from 'zod';
import {
  normalizeOrder,
  normalizeOrderV101,
  Order,
  OrderList,
  OrderV101,
  PartnerSettings,
  Product,
  ProductList,
  Protocol,
  ProtocolDeleted,
  ProtocolList,
  ShippingMethodList,
  WebhookSecret,
  type AppOrder,
  type CreateOrderRequest,
  type Direction,
  type OrderStatusV101,
  type PartnerSettingsPatch,
  type ProductStatus,
  type ProtocolRequest,
  type ShippingMethodInfo,
} from '../../shared/api';
import { ApiClientError, isApiClientError } from './errors';
import { parseResponse } from './http';
import { createTransport, type TransportOptions } from './transport';

export type ApiClientOptions = TransportOptions;

export interface PageParams {
  limit?: number;
  cursor?: string;
  direction?: Direction;
}
export interface ListOrdersParams extends PageParams {
  /** The 1.0.1 status set, as the list-orders filter takes it. */
  status?: OrderStatusV101;
}
export interface ListProtocolsParams extends PageParams {
  search?: string;
}
export interface ListProductsParams extends PageParams {
  status?: ProductStatus;
  /** A date (YYYY-MM-DD) or an ISO 8601 date-time. */
  updatedAfter?: string;
  updatedBefore?: string;
}

/** One method per operation of the Order Fulfillment API. Every failure is an ApiClientError. */
export interface ApiClient {
  createOrder(body: CreateOrderRequest): Promise<Order>;
  listOrders(params?: ListOrdersParams): Promise<{ orders: AppOrder[]; cursor: string | null }>;
  getOrder(orderId: string): Promise<AppOrder>;
  cancelOrder(orderId: string): Promise<AppOrder>;
  createProtocol(body: ProtocolRequest): Promise<Protocol>;
  listProtocols(
    params?: ListProtocolsParams,
  ): Promise<{ protocols: Protocol[]; cursor: string | null }>;
  getProtocol(protocolId: string): Promise<Protocol>;
  replaceProtocol(protocolId: string, body: ProtocolRequest): Promise<Protocol>;
  deleteProtocol(protocolId: string): Promise<ProtocolDeleted>;
  listProducts(
    params?: ListProductsParams,
  ): Promise<{ products: Product[]; cursor: string | null }>;
  getProduct(productId: number): Promise<Product>;
  listShippingMethods(): Promise<ShippingMethodInfo[]>;
  getPartnerSettings(): Promise<PartnerSettings>;
  updatePartnerSettings(patch: PartnerSettingsPatch): Promise<PartnerSettings>;
  /** null when the partner has no webhook secret (no webhookUrl configured: 404). */
  getWebhookSecret(): Promise<string | null>;
  rotateWebhookSecret(): Promise<string>;
}

const id = (value: string | number) => encodeURIComponent(String(value));
const as =
  <S extends z.ZodType>(schema: S) =>
  (text: string, status: number, label: string): z.output<S> =>
    parseResponse(schema, text, label, status);

/** Cancel's answer is not in the spec: read the 1.0.2 order, or a 1.0.1 one; an empty body means read it back. */
function cancelled(text: string, status: number, label: string): AppOrder | null {
  if (text.trim() === '') return null;
  const current = Order.safeParse(safeJson(text));
  if (current.success) return normalizeOrder(current.data);
  return normalizeOrderV101(parseResponse(OrderV101, text, label, status));
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const send = createTransport(options);

  const getOrder = async (orderId: string) =>
    normalizeOrderV101(
      await send({
        method: 'GET',
        path: `/orders/${id(orderId)}`,
        retry: 'idempotent',
        label: 'get order',
        parse: as(OrderV101),
      }),
    );

  return {
    createOrder: (body) =>
      send({
        method: 'POST',
        path: '/orders',
        body,
        retry: 'unsafe',
        label: 'create order',
        parse: as(Order),
      }),

    async listOrders(params = {}) {
      const page = await send({
        method: 'GET',
        path: '/orders',
        query: { ...params },
        retry: 'idempotent',
        label: 'list orders',
        parse: as(OrderList),
      });
      return { orders: page.orders.map(normalizeOrderV101), cursor: page.cursor };
    },

    getOrder,

    async cancelOrder(orderId) {
      try {
        const order = await send({
          method: 'POST',
          path: `/orders/${id(orderId)}/cancel`,
          retry: 'unsafe',
          label: 'cancel order',
          parse: cancelled,
        });
        return order ?? (await getOrder(orderId));
      } catch (error) {
        if (isApiClientError(error, 'conflict')) {
          throw new ApiClientError({
            kind: 'conflict',
            status: error.status,
            ...(error.detail === undefined ? {} : { detail: error.detail }),
            message:
              `This order can no longer be cancelled: only an order in NEW status can be. ${error.detail ?? ''}`.trim(),
          });
        }
        throw error;
      }
    },

    createProtocol: (body) =>
      send({
        method: 'POST',
        path: '/protocols',
        body,
        retry: 'unsafe',
        label: 'create protocol',
        parse: as(Protocol),
      }),

    listProtocols: (params = {}) =>
      send({
        method: 'GET',
        path: '/protocols',
        query: { ...params },
        retry: 'idempotent',
        label: 'list protocols',
        parse: as(ProtocolList),
      }),

    getProtocol: (protocolId) =>
      send({
        method: 'GET',
        path: `/protocols/${id(protocolId)}`,
        retry: 'idempotent',
        label: 'get protocol',
        parse: as(Protocol),
      }),

    replaceProtocol: (protocolId, body) =>
      send({
        method: 'PUT',
        path: `/protocols/${id(protocolId)}`,
        body,
        retry: 'idempotent',
        label: 'update protocol',
        parse: as(Protocol),
      }),

    deleteProtocol: (protocolId) =>
      send({
        method: 'DELETE',
        path: `/protocols/${id(protocolId)}`,
        retry: 'idempotent',
        label: 'delete protocol',
        parse: as(ProtocolDeleted),
      }),

    listProducts: (params = {}) =>
      send({
        method: 'GET',
        path: '/products',
        query: { ...params },
        retry: 'idempotent',
        label: 'list products',
        parse: as(ProductList),
      }),

    getProduct: (productId) =>
      send({
        method: 'GET',
        path: `/products/${id(productId)}`,
        retry: 'idempotent',
        label: 'get product',
        parse: as(Product),
      }),

    async listShippingMethods() {
      const list = await send({
        method: 'GET',
        path: '/shipping-methods',
        retry: 'idempotent',
        label: 'list shipping methods',
        parse: as(ShippingMethodList),
      });
      return list.shippingMethods;
    },

    getPartnerSettings: () =>
      send({
        method: 'GET',
        path: '/partners/settings',
        retry: 'idempotent',
        label: 'get partner settings',
        parse: as(PartnerSettings),
      }),

    // Setting the same fields to the same values twice leaves the same settings: idempotent.
    updatePartnerSettings: (patch) =>
      send({
        method: 'PATCH',
        path: '/partners/settings',
        body: patch,
        retry: 'idempotent',
        label: 'update partner settings',
        parse: as(PartnerSettings),
      }),

    async getWebhookSecret() {
      try {
        const body = await send({
          method: 'GET',
          path: '/partners/settings/webhook-secret',
          retry: 'idempotent',
          label: 'get webhook secret',
          parse: as(WebhookSecret),
        });
        return body.webhookSecret;
      } catch (error) {
        if (isApiClientError(error, 'not-found')) return null;
        throw error;
      }
    },

    async rotateWebhookSecret() {
      const body = await send({
        method: 'POST',
        path: '/partners/settings/rotate-webhook-secret',
        retry: 'unsafe',
        label: 'rotate webhook secret',
        parse: as(WebhookSecret),
      });
      return body.webhookSecret;
    },
  };
}
