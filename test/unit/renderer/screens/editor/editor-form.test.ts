import { describe, expect, it } from 'vitest';
import {
  EditorForm,
  emptyForm,
  formValues,
  type EditorFormInput,
} from '@renderer/screens/editor/editor-form';
import { formPath, refusalText, serverIssues } from '@renderer/lib/server-issues';
import { previewPricing } from '@renderer/screens/editor/price-preview';
import { priceOrder } from '@shared/pricing';
import type { Product } from '@shared/api';

const filled = (): EditorFormInput => ({
  ...emptyForm(),
  customer: {
    sourceId: 'P-1',
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: '',
    phone: ' ',
    address: { line1: '1 Main St', line2: '', city: 'Springfield', state: 'ca', zipCode: '95123' },
  },
  daysSupply: '60',
  lineItems: [
    {
      productId: 1,
      external: false,
      quantity: '0',
      administration: { morning: '1', afternoon: '0', evening: '2', sleep: '0' },
    },
    {
      productId: 2,
      external: true,
      quantity: '2',
      administration: { morning: '0', afternoon: '0', evening: '0', sleep: '0' },
    },
  ],
});

const pathsOf = (input: EditorFormInput) => {
  const r = EditorForm.safeParse(input);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('the editor form', () => {
  it('makes a ProtocolRequest: empty optional boxes are null, a pack quantity is its doses', () => {
    const out = EditorForm.parse(filled());
    expect(out.customer.email).toBeNull();
    expect(out.customer.phone).toBeNull();
    expect(out.customer.address.line2).toBeNull();
    expect(out.customer.address.state).toBe('CA');
    expect(out.daysSupply).toBe(60);
    expect(out.lineItems).toEqual([
      {
        productId: 1,
        quantity: 3,
        administration: { morning: 1, afternoon: 0, evening: 2, sleep: 0 },
      },
      { productId: 2, quantity: 2, administration: null },
    ]);
  });

  it('puts each shared rule on its own field', () => {
    const bad = filled();
    bad.customer.email = 'nope';
    bad.customer.address.zipCode = '123';
    bad.customer.firstName = ' ';
    bad.lineItems[0]!.administration = { morning: '0', afternoon: '0', evening: '0', sleep: '0' };
    bad.lineItems[1]!.quantity = 'x';
    expect(pathsOf(bad)).toEqual(
      expect.arrayContaining([
        'customer.firstName: required',
        'customer.email: email address',
        'customer.address.zipCode: exactly 5 digits',
        'lineItems.0.quantity: at least 1',
        'lineItems.1.quantity: a whole number',
      ]),
    );
    expect(pathsOf({ ...filled(), lineItems: [] })).toContain('lineItems: at least one line item');
  });

  it('reads a stored draft back into the boxes', () => {
    const out = EditorForm.parse(filled());
    const again = formValues({ ...out, customer: { ...out.customer } }, (id) => id === 2);
    expect(EditorForm.parse(again)).toEqual(out);
  });

  it('maps the server and main paths onto the form', () => {
    expect(formPath(['draft', 'customer', 'email'])).toBe('customer.email');
    expect(formPath(['body', 'lineItems', 0, 'administration'])).toBe('lineItems.0.quantity');
    expect(formPath(['lineItems', 1, 'administration', 'sleep'])).toBe(
      'lineItems.1.administration.sleep',
    );
    expect(formPath(['lineItems', 0, 'packDescription'])).toBe('lineItems.0.productId');
    expect(
      serverIssues(
        'The server refused it: lineItems.0.productId: product 7 is DISCONTINUED; customer.email: bad',
      ),
    ).toEqual([
      { path: 'lineItems.0.productId', message: 'product 7 is DISCONTINUED' },
      { path: 'customer.email', message: 'bad' },
    ]);
    // As main words it now: each field named as the form labels it.
    expect(
      serverIssues(
        'The server refused it: Patient ID: required; State: bad; Product 2 bedtime: too many',
      ),
    ).toEqual([
      { path: 'customer.sourceId', message: 'required' },
      { path: 'customer.address.state', message: 'bad' },
      { path: 'lineItems.1.administration.sleep', message: 'too many' },
    ]);
    expect(serverIssues('The server refused it (HTTP 409): taken')).toEqual([
      { path: null, message: 'The server refused it (HTTP 409): taken' },
    ]); // A refused product in plain words goes on the line of the product it names.
    const lines = [{ id: 1001, name: 'Magnesium Glycinate' }, { id: 4242 }];
    expect(
      serverIssues(
        "The server refused it: Magnesium Glycinate is discontinued; Product 4242 is not in the partner's catalog; Days supply: bad",
        lines,
      ),
    ).toEqual([
      { path: 'lineItems.0.productId', message: 'Magnesium Glycinate is discontinued' },
      { path: 'lineItems.1.productId', message: "Product 4242 is not in the partner's catalog" },
      { path: 'daysSupply', message: 'bad' },
    ]);
    // Without the lines (a batch's row) it is a sentence of its own.
    expect(serverIssues('The server refused it: Magnesium Glycinate is discontinued')).toEqual([
      { path: null, message: 'Magnesium Glycinate is discontinued' },
    ]);
  });

  it('words a refusal: reasons that name a field are left to the field', () => {
    expect(
      refusalText('The server refused it: lineItems.0.productId: product 7 is DISCONTINUED'),
    ).toBe('The reason is shown on the field below.');
    expect(refusalText('The server refused it (HTTP 409): taken')).toBe(
      'The server refused it (HTTP 409): taken.',
    );
    expect(refusalText(null)).toBe('No reason was given.');
  });

  it('previews the price with the shared function, leaving out lines not valid yet', () => {
    const products = new Map<number, Product>([
      [1, { id: 1, price: '0.50', external: false } as Product],
      [2, { id: 2, price: '20.00', external: true } as Product],
    ]);
    const form = filled();
    const preview = previewPricing(form, (id) => products.get(id), 0.1);
    expect(preview.pricing).toEqual(
      priceOrder({
        daysSupply: 60,
        shippingMethod: 'STANDARD',
        discountValue: 0.1,
        lineItems: [
          { quantity: 3, price: '0.50', external: false },
          { quantity: 2, price: '20.00', external: true },
        ],
      }),
    );
    form.lineItems[1]!.quantity = '';
    const partial = previewPricing(form, (id) => products.get(id), 0.1);
    expect(partial.unpriced).toBe(1);
    expect(partial.lineTotals[1]).toBeNull();
  });
});
