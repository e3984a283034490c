import { z } from 'zod';
import type { ProtocolRequest } from '@shared/api';
import {
  AdministrationRequest,
  DaysSupply,
  LineItemRequest,
  OrderType,
  ShippingMethod,
  lineItemList,
  type ProtocolDraft,
} from '@shared/api';
import { CustomerInput, zipMatchesState } from '@shared/protocol-input';

/**
 * The editor's form: what the boxes hold (text), and the shared rules of ProtocolRequest applied
 * field by field, so each message lands on its own field while the user types. The output is a
 * ProtocolRequest, and every path of the form is the path of the same value in the request
 * (customer.address.zipCode, lineItems.0.quantity), so the server's complaints map back 1:1.
 */

/** A text box that may be left empty: empty is null, then the contract's rule. */
const optionalBox = (rule: z.ZodType<string | null | undefined, string | null | undefined>) =>
  z
    .string()
    .transform((v): string | null => (v.trim() === '' ? null : v.trim()))
    .pipe(rule as z.ZodType<string | null | undefined, string | null>);

/** A number box: whole digits only, then the contract's rule. */
const numberBox = (rule: z.ZodType<number, number>) =>
  z
    .string()
    .trim()
    .regex(/^\d{1,7}$/, { message: 'a whole number', abort: true })
    .transform(Number)
    .pipe(rule);

const customer = CustomerInput.shape;
const address = customer.address.shape;

export const CustomerForm = z.object({
  sourceId: customer.sourceId,
  firstName: customer.firstName,
  lastName: customer.lastName,
  email: optionalBox(customer.email),
  phone: optionalBox(customer.phone),
  address: zipMatchesState(
    z.object({
      line1: address.line1,
      line2: optionalBox(address.line2),
      city: address.city,
      state: z
        .string()
        .transform((v) => v.trim().toUpperCase())
        .pipe(address.state),
      zipCode: z
        .string()
        .transform((v) => v.trim())
        .pipe(address.zipCode),
    }),
  ),
});
export type CustomerFormInput = z.input<typeof CustomerForm>;

const dose = AdministrationRequest.shape.morning;

/** The four times of day, in the order the spec lists them; "sleep" is shown as Bedtime. */
export const DOSES = [
  { key: 'morning', label: 'Morning' },
  { key: 'afternoon', label: 'Afternoon' },
  { key: 'evening', label: 'Evening' },
  { key: 'sleep', label: 'Bedtime' },
] as const;
export type DoseKey = (typeof DOSES)[number]['key'];

const LineForm = z
  .object({
    productId: LineItemRequest.shape.productId,
    /** What the catalog says of the product: a pack line has doses, an external one does not. */
    external: z.boolean(),
    packDescription: z.string().optional(),
    /** Units per 30 days of an external product; a pack line's quantity is its doses' sum. */
    quantity: z.string(),
    administration: z.object({
      morning: numberBox(dose),
      afternoon: numberBox(dose),
      evening: numberBox(dose),
      sleep: numberBox(dose),
    }),
  })
  .transform((line, ctx) => {
    const a = line.administration;
    const rawQuantity = line.external
      ? line.quantity
      : String(a.morning + a.afternoon + a.evening + a.sleep);
    const quantity = numberBox(LineItemRequest.shape.quantity).safeParse(rawQuantity);
    if (!quantity.success) {
      for (const issue of quantity.error.issues)
        ctx.addIssue({ code: 'custom', path: ['quantity'], message: issue.message });
      return z.NEVER;
    }
    return {
      productId: line.productId,
      quantity: quantity.data,
      ...(line.packDescription ? { packDescription: line.packDescription } : {}),
      administration: line.external ? null : a,
    };
  });

export const EditorForm = z
  .object({
    customer: CustomerForm,
    daysSupply: z.string().transform(Number).pipe(DaysSupply),
    shippingMethod: ShippingMethod,
    orderType: OrderType,
    lineItems: lineItemList(LineForm),
  })
  // The output is a ProtocolRequest (checked by the type below); the rules are the shared ones.
  .transform((v): ProtocolRequest => v);
export type EditorFormInput = z.input<typeof EditorForm>;
export type EditorFormOutput = z.output<typeof EditorForm>;
export type LineFormInput = EditorFormInput['lineItems'][number];

const text = (v: string | null | undefined): string => v ?? '';

export const emptyCustomer = (): CustomerFormInput => ({
  sourceId: '',
  firstName: '',
  lastName: '',
  email: '',
  phone: '',
  address: { line1: '', line2: '', city: '', state: '', zipCode: '' },
});

export const emptyForm = (): EditorFormInput => ({
  customer: emptyCustomer(),
  daysSupply: '30',
  shippingMethod: 'STANDARD',
  orderType: 'ONE_TIME',
  lineItems: [],
});

/**
 * The form's values for a stored draft. `isExternal` says which products are external; a line
 * whose product is unknown yet is read from its administration (null is external).
 */
export function formValues(
  draft: ProtocolDraft,
  isExternal: (productId: number) => boolean | undefined,
): EditorFormInput {
  const c = draft.customer;
  return {
    customer: {
      sourceId: c.sourceId,
      firstName: c.firstName,
      lastName: c.lastName,
      email: text(c.email),
      phone: text(c.phone),
      address: {
        line1: c.address.line1,
        line2: text(c.address.line2),
        city: c.address.city,
        state: c.address.state,
        zipCode: c.address.zipCode,
      },
    },
    daysSupply: String(draft.daysSupply ?? 30),
    shippingMethod: draft.shippingMethod ?? 'STANDARD',
    orderType: draft.orderType ?? 'ONE_TIME',
    lineItems: draft.lineItems.map((li) => {
      const external = isExternal(li.productId) ?? li.administration == null;
      const a = li.administration;
      return {
        productId: li.productId,
        external,
        ...(li.packDescription !== undefined ? { packDescription: li.packDescription } : {}),
        quantity: String(li.quantity),
        administration: {
          morning: String(a?.morning ?? 0),
          afternoon: String(a?.afternoon ?? 0),
          evening: String(a?.evening ?? 0),
          sleep: String(a?.sleep ?? 0),
        },
      };
    }),
  };
}

/** A new line for a product picked from the catalog: a pack line starts at its recommended usage. */
export function newLine(product: {
  id: number;
  external: boolean;
  packDescription: string;
  recommendedUsage: { morning: number; afternoon: number; evening: number; sleep: number };
}): LineFormInput {
  const r = product.recommendedUsage;
  const usable = !product.external && r.morning + r.afternoon + r.evening + r.sleep > 0;
  return {
    productId: product.id,
    external: product.external,
    ...(!product.external && product.packDescription && product.packDescription.length <= 100
      ? { packDescription: product.packDescription }
      : {}),
    quantity: '1',
    administration: {
      morning: String(usable ? r.morning : 1),
      afternoon: String(usable ? r.afternoon : 0),
      evening: String(usable ? r.evening : 0),
      sleep: String(usable ? r.sleep : 0),
    },
  };
}

/** A saved protocol, a new one, or a new order from scratch (nothing kept as a protocol). */
export type EditorMode = 'new' | 'edit' | 'order';
