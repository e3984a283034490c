import { ProtocolRequest, type AppOrder } from '@shared/api';
import { BatchRejectedError, protocolLabel } from './order-requests';

/**
 * A past order ordered again, as it was: its patient, address, supply, shipping, order type and
 * line items (products, quantities, doses, packs), as the draft of one order from scratch. It is
 * then reviewed and created like any order from scratch (create-order.ts), so it is confirmed
 * the same way, checked for duplicates the same way and sent exactly once. Throws
 * BatchRejectedError when the order cannot be a request as it stands (a value the API no longer
 * takes), each problem on its field.
 */
export function draftFromOrder(order: AppOrder): ProtocolRequest {
  const { customer } = order;
  const draft = ProtocolRequest.safeParse({
    customer: {
      sourceId: customer.sourceId,
      firstName: customer.firstName,
      lastName: customer.lastName,
      email: customer.email,
      phone: customer.phone,
      address: {
        line1: customer.address.line1,
        line2: customer.address.line2 ?? null,
        city: customer.address.city,
        state: customer.address.state,
        zipCode: customer.address.zipCode,
      },
    },
    daysSupply: order.daysSupply,
    shippingMethod: order.shippingMethod,
    orderType: order.orderType,
    lineItems: order.lineItems.map((li) => ({
      productId: li.productId,
      quantity: li.quantity,
      ...(li.packDescription !== null ? { packDescription: li.packDescription } : {}),
      administration: li.administration,
    })),
  });
  if (draft.success) return draft.data;
  throw new BatchRejectedError([
    {
      protocolLocalId: '',
      label: protocolLabel({
        customerName: `${customer.firstName} ${customer.lastName}`,
        sourceId: customer.sourceId,
      }),
      problems: draft.error.issues.map((issue) => ({
        path: issue.path.map(String).join('.'),
        message: issue.message,
      })),
    },
  ]);
}
