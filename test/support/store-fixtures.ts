import type {
  AppOrder,
  CreateOrderRequest,
  Product,
  Protocol,
  ProtocolRead,
  ProtocolRequest,
} from '@shared/api';
import { createLocalStore, type LocalStore } from '@main/stores';

/** A clock the test moves by hand. */
export function manualClock(start = Date.parse('2025-03-01T10:00:00Z')) {
  let now = start;
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

export function memoryStore(
  clock = manualClock(),
): LocalStore & { clock: ReturnType<typeof manualClock> } {
  return Object.assign(createLocalStore(':memory:', { clock }), { clock });
}

export function protocolRequest(
  customer: Partial<ProtocolRequest['customer']> = {},
  overrides: Partial<ProtocolRequest> = {},
): ProtocolRequest {
  return {
    customer: {
      sourceId: 'patient-0001',
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      phone: '+1 503 555 0100',
      address: { line1: '1 Main St', line2: null, city: 'Portland', state: 'OR', zipCode: '97210' },
      ...customer,
    },
    daysSupply: 30,
    shippingMethod: 'STANDARD',
    orderType: 'ONE_TIME',
    lineItems: [
      {
        productId: 1001,
        quantity: 2,
        administration: { morning: 1, afternoon: 0, evening: 1, sleep: 0 },
      },
      { productId: 1035, quantity: 1, administration: null },
    ],
    ...overrides,
  };
}

export function serverProtocol(
  id: string,
  updatedAt: string,
  request: ProtocolRequest = protocolRequest(),
): Protocol {
  const c = request.customer;
  return {
    id,
    customer: {
      sourceId: c.sourceId,
      firstName: c.firstName,
      lastName: c.lastName,
      email: c.email ?? null,
      phone: c.phone ?? null,
      address: { ...c.address, line2: c.address.line2 ?? null },
    },
    daysSupply: request.daysSupply,
    orderType: request.orderType,
    shippingMethod: request.shippingMethod,
    discount: '10%',
    lineItems: request.lineItems.map((li) => ({
      productId: li.productId,
      name: `Product ${li.productId}`,
      quantity: li.quantity,
      price: '0.50',
      discountedPrice: '0.45',
      totalPrice: '27.00',
      external: li.administration == null,
      imageUrl: null,
      administration: li.administration ?? null,
    })),
    subtotalPrice: '27.00',
    totalDiscount: '3.00',
    totalFees: '0.00',
    totalVolumeDiscount: '0.00',
    totalShipping: '5.00',
    totalPrice: '32.00',
    createdAt: '2025-02-01T09:00:00Z',
    updatedAt,
  };
}

export function appOrder(id: string, overrides: Partial<AppOrder> = {}): AppOrder {
  return {
    id,
    discount: '10%',
    daysSupply: 30,
    orderType: 'ONE_TIME',
    shippingMethod: 'STANDARD',
    status: 'NEW',
    statusPrecision: 'exact',
    fulfillmentInfo: null,
    lineItems: [
      {
        productId: 1001,
        quantity: 2,
        packDescription: '1 capsule',
        price: '0.50',
        discountedPrice: '0.45',
        administration: { morning: 1, afternoon: 0, evening: 1, sleep: 0 },
        name: 'Vitamin D3',
        totalPrice: '27.00',
        external: false,
        imageUrl: 'https://img.invalid/1001.png',
      },
    ],
    customer: {
      sourceId: 'patient-0001',
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      phone: null,
      address: { line1: '1 Main St', line2: null, city: 'Portland', state: 'OR', zipCode: '97210' },
    },
    subtotalPrice: '27.00',
    totalDiscount: '3.00',
    totalFees: '0.00',
    totalShipping: '5.00',
    totalVolumeDiscount: '0.00',
    totalPrice: '32.00',
    createdAt: '2025-03-01T10:00:00Z',
    updatedAt: '2025-03-01T10:00:00Z',
    ...overrides,
  };
}

/** The same order as a 1.0.1 read shows it: coarse status, reduced line items and tracking. */
export function coarse(order: AppOrder): AppOrder {
  return {
    ...order,
    statusPrecision: 'coarse',
    lineItems: order.lineItems.map((li) => ({
      ...li,
      name: null,
      totalPrice: null,
      external: null,
      imageUrl: null,
    })),
    fulfillmentInfo: order.fulfillmentInfo
      ? { ...order.fulfillmentInfo, trackingStatus: null, trackingUrl: null, checkpoints: null }
      : null,
  };
}

export function product(id: number, overrides: Partial<Product> = {}): Product {
  return {
    id,
    name: `Product ${id}`,
    description: 'A supplement',
    packDescription: '1 capsule',
    price: '0.50',
    external: false,
    productImage: `https://img.invalid/${id}.png`,
    recommendedUsage: { morning: 1, afternoon: 0, evening: 0, sleep: 0 },
    form: 'capsule',
    certifications: ['vegan'],
    allergens: ['gluten_free'],
    SupplementFactsPanel: {
      servingSize: 1,
      type: 'capsule',
      otherIngredients: [],
      ingredientInformation: [],
      nutritionInformation: [],
    },
    status: 'ACTIVE',
    createdAt: '2025-01-01T00:00:00Z',
    updatedAt: '2025-01-01T00:00:00Z',
    ...overrides,
  };
}

/** A minimal valid create-order request for patient `sourceId` (one external item). */
export const orderRequest = (sourceId: string): CreateOrderRequest => ({
  customer: {
    sourceId,
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    address: { line1: '1 Main St', city: 'Portland', state: 'OR', zipCode: '97210' },
  },
  daysSupply: 30,
  shippingMethod: 'STANDARD',
  orderType: 'ONE_TIME',
  lineItems: [{ productId: 1035, quantity: 1, administration: null }],
});

/** A running batch of `n` items (protocols p-0 ..., requests for s-0 ...). */
export const batchOf = (store: LocalStore, n: number, concurrency = 2) =>
  store.batches.insertBatch(
    Array.from({ length: n }, (_, i) => ({
      protocolLocalId: `p-${i}`,
      request: orderRequest(`s-${i}`),
    })),
    { concurrency },
  );

/** A protocol as the mirror pull stores it (one page of one). */
export function mirrorProtocol(store: LocalStore, protocol: ProtocolRead) {
  return store.protocols.upsertManyFromServer([protocol])[0]!;
}
