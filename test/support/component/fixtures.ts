import { AppOrder, PartnerSettings, ProductRead, type ProtocolRequest } from '@shared/api';
import { ProtocolView } from '@shared/protocol-views';

/**
 * Realistic data for component tests, each parsed with the shared schema it crosses as, so a
 * fixture that no longer matches the contract fails where it is built.
 */

/** An order of the local mirror (1.0.2 shape), NEW unless told otherwise. */
export function order(over: Partial<AppOrder> = {}): AppOrder {
  return AppOrder.parse({
    id: 'ord_1001',
    discount: '15.00',
    daysSupply: 30,
    orderType: 'ONE_TIME',
    shippingMethod: 'STANDARD',
    status: 'NEW',
    statusPrecision: 'exact',
    fulfillmentInfo: null,
    lineItems: [],
    customer: {
      sourceId: 'PAT-ADA-1',
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      phone: null,
      address: {
        line1: '12 Analytical Way',
        line2: null,
        city: 'Portland',
        state: 'OR',
        zipCode: '97201',
      },
    },
    subtotalPrice: '21.60',
    totalDiscount: '3.24',
    totalFees: '0.00',
    totalShipping: '7.99',
    totalVolumeDiscount: '0.00',
    totalPrice: '26.35',
    createdAt: '2026-11-20T09:30:00.000Z',
    updatedAt: '2026-11-20T09:30:00.000Z',
    ...over,
  });
}

/** A pack product of the catalog mirror (doses: 0-0-1-1 a day). */
export function packProduct(over: Partial<ProductRead> = {}): ProductRead {
  return ProductRead.parse({
    id: 101,
    name: 'Magnesium Glycinate 120 mg',
    description: 'Chelated magnesium for muscle and sleep support.',
    packDescription: '2 capsules daily',
    price: '0.18',
    external: false,
    productImage: 'https://example.com/img/101.png',
    recommendedUsage: { morning: 0, afternoon: 0, evening: 1, sleep: 1 },
    form: 'capsule',
    certifications: ['GMP'],
    allergens: [],
    SupplementFactsPanel: {
      servingSize: 1,
      type: 'capsule',
      otherIngredients: ['Hypromellose'],
      ingredientInformation: [{ name: 'Magnesium', value: '120', unit: 'mg', daily_value: '29%' }],
      nutritionInformation: [],
    },
    status: 'ACTIVE',
    createdAt: '2026-01-05T00:00:00.000Z',
    updatedAt: '2026-01-05T00:00:00.000Z',
    ...over,
  });
}

/** A protocol as main answers protocols.create: saved here, its create waiting to be sent. */
export function savedProtocol(draft: ProtocolRequest, localId: string): ProtocolView {
  return ProtocolView.parse({
    localId,
    serverId: null,
    customerName: `${draft.customer.firstName} ${draft.customer.lastName}`,
    sourceId: draft.customer.sourceId,
    email: draft.customer.email ?? null,
    syncState: 'pending',
    deleted: false,
    localUpdatedAt: Date.parse('2026-11-26T10:00:00.000Z'),
    change: { op: 'create', state: 'queued', attempts: 0, message: null },
    draft,
    server: null,
    conflict: null,
  });
}

/** The partner's settings: Evergreen Clinic, a 15% discount, nothing else set unless told. */
export function partnerSettings(over: Partial<PartnerSettings> = {}): PartnerSettings {
  return PartnerSettings.parse({
    id: 'ptn_1',
    name: 'Evergreen Clinic',
    description: null,
    discount: '15%',
    discountValue: 0.15,
    primaryColor: null,
    secondaryColor: null,
    logo: null,
    phone: null,
    supportEmail: null,
    website: null,
    webhookUrl: null,
    billingAddressLine1: null,
    billingAddressLine2: null,
    billingCity: null,
    billingState: null,
    billingPostalCode: null,
    billingCountry: null,
    createdAt: '2026-01-05T00:00:00.000Z',
    updatedAt: '2026-01-05T00:00:00.000Z',
    ...over,
  });
}
