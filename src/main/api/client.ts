import type { z } from 'zod';
import {
  normalizeOrder,
  normalizeOrderV101,
  OrderRead,
  OrderV101Read,
  PartnerSettings,
  ProductRead,
  ProtocolDeleted,
  ProtocolRead,
  ShippingMethodInfo,
  WebhookSecret,
  type AppOrder,
  type CreateOrderRequest,
  type Direction,
  type OrderStatusV101,
  type PartnerSettingsPatch,
  type ProductStatus,
  type ProtocolRequest,
} from '@shared/api';
import { ApiClientError, isApiClientError } from './errors';
import { parseList, parseResponse, type ListPage, type SkippedItem } from './http';
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

/** Items of a list answer that could not be read: left out of the page, each with its reasons. */
export type { SkippedItem };

/**
 * One method per operation of the Order Fulfillment API. Every failure is an ApiClientError.
 * Answers are read as the server may send them (shared/api/read.ts): an enum value the app does
 * not know is kept, and a list item that cannot be read is left out and listed in `skipped`.
 */
export interface ApiClient {
  /** The created order, whether the server answered in the 1.0.2 or the 1.0.1 shape. */
  createOrder(body: CreateOrderRequest): Promise<AppOrder>;
  listOrders(
    params?: ListOrdersParams,
  ): Promise<{ orders: AppOrder[]; cursor: string | null; skipped: SkippedItem[] }>;
  getOrder(orderId: string): Promise<AppOrder>;
  cancelOrder(orderId: string): Promise<AppOrder>;
  createProtocol(body: ProtocolRequest): Promise<ProtocolRead>;
  listProtocols(
    params?: ListProtocolsParams,
  ): Promise<{ protocols: ProtocolRead[]; cursor: string | null; skipped: SkippedItem[] }>;
  getProtocol(protocolId: string): Promise<ProtocolRead>;
  replaceProtocol(protocolId: string, body: ProtocolRequest): Promise<ProtocolRead>;
  deleteProtocol(protocolId: string): Promise<ProtocolDeleted>;
  listProducts(
    params?: ListProductsParams,
  ): Promise<{ products: ProductRead[]; cursor: string | null; skipped: SkippedItem[] }>;
  getProduct(productId: number): Promise<ProductRead>;
  listShippingMethods(): Promise<{
    shippingMethods: ShippingMethodInfo[];
    skipped: SkippedItem[];
  }>;
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

const list =
  <S extends z.ZodType>(key: string, item: S, paged = true) =>
  (text: string, status: number, label: string): ListPage<z.output<S>> =>
    parseList(key, item, text, label, status, { paged });

/**
 * An order in either shape ("Create order exists in both versions"): the 1.0.2 order, else the
 * 1.0.1 one; when neither fits, the 1.0.2 shape's problems are reported.
 */
function eitherOrder(text: string, status: number, label: string): AppOrder {
  const body = safeJson(text);
  const current = OrderRead.safeParse(body);
  if (current.success) return normalizeOrder(current.data);
  const older = OrderV101Read.safeParse(body);
  if (older.success) return normalizeOrderV101(older.data);
  return normalizeOrder(parseResponse(OrderRead, text, label, status));
}

/** Cancel's answer is not in the spec: an order in either shape; an empty body means read it back. */
function cancelled(text: string, status: number, label: string): AppOrder | null {
  if (text.trim() === '') return null;
  return eitherOrder(text, status, label);
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
        parse: as(OrderV101Read),
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
        parse: eitherOrder,
      }),

    async listOrders(params = {}) {
      const page = await send({
        method: 'GET',
        path: '/orders',
        query: { ...params },
        retry: 'idempotent',
        label: 'list orders',
        parse: list('orders', OrderV101Read),
      });
      return {
        orders: page.items.map(normalizeOrderV101),
        cursor: page.cursor,
        skipped: page.skipped,
      };
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
        parse: as(ProtocolRead),
      }),

    async listProtocols(params = {}) {
      const page = await send({
        method: 'GET',
        path: '/protocols',
        query: { ...params },
        retry: 'idempotent',
        label: 'list protocols',
        parse: list('protocols', ProtocolRead),
      });
      return { protocols: page.items, cursor: page.cursor, skipped: page.skipped };
    },

    getProtocol: (protocolId) =>
      send({
        method: 'GET',
        path: `/protocols/${id(protocolId)}`,
        retry: 'idempotent',
        label: 'get protocol',
        parse: as(ProtocolRead),
      }),

    replaceProtocol: (protocolId, body) =>
      send({
        method: 'PUT',
        path: `/protocols/${id(protocolId)}`,
        body,
        retry: 'idempotent',
        label: 'update protocol',
        parse: as(ProtocolRead),
      }),

    deleteProtocol: (protocolId) =>
      send({
        method: 'DELETE',
        path: `/protocols/${id(protocolId)}`,
        retry: 'idempotent',
        label: 'delete protocol',
        parse: as(ProtocolDeleted),
      }),

    async listProducts(params = {}) {
      const page = await send({
        method: 'GET',
        path: '/products',
        query: { ...params },
        retry: 'idempotent',
        label: 'list products',
        parse: list('products', ProductRead),
      });
      return { products: page.items, cursor: page.cursor, skipped: page.skipped };
    },

    getProduct: (productId) =>
      send({
        method: 'GET',
        path: `/products/${id(productId)}`,
        retry: 'idempotent',
        label: 'get product',
        parse: as(ProductRead),
      }),

    // A method the app does not know cannot be sent in a request: it is skipped and reported.
    async listShippingMethods() {
      const page = await send({
        method: 'GET',
        path: '/shipping-methods',
        retry: 'idempotent',
        label: 'list shipping methods',
        parse: list('shippingMethods', ShippingMethodInfo, false),
      });
      return { shippingMethods: page.items, skipped: page.skipped };
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
