import type { CreateOrderRequest } from '@shared/api';

/** The order the polling benches create for patient `i` (`${prefix}-${i}`): one product, 30 days. */
export const benchOrderBody = (prefix: string, i: number): CreateOrderRequest => ({
  customer: {
    sourceId: `${prefix}-${i}`,
    firstName: 'Bench',
    lastName: `Patient ${i}`,
    address: { line1: '1 Main St', city: 'Portland', state: 'OR', zipCode: '97210' },
  },
  daysSupply: 30,
  shippingMethod: 'STANDARD',
  orderType: 'ONE_TIME',
  lineItems: [{ productId: 1035, quantity: 1, administration: null }],
});
