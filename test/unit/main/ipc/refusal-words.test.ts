import { describe, expect, it } from 'vitest';
import { describeJobError } from '@main/ipc/views';

const names: Record<number, string> = { 1028: 'Glucosamine & Chondroitin', 1035: 'Whey Powder' };
const product = (id: number) => (names[id] ? { name: names[id] } : null);

describe('a refusal in plain words', () => {
  it('says which product is discontinued, a draft or unknown, never the raw code or field', () => {
    const message = describeJobError(
      {
        kind: 'validation',
        issues: [
          {
            loc: ['body', 'lineItems', 0, 'productId'],
            type: 'invalid',
            msg: 'product 1028 is DISCONTINUED and cannot be ordered',
          },
          // A server that does not name the product: the request's line says which.
          { loc: ['body', 'lineItems', 1, 'productId'], type: 'invalid', msg: 'is DRAFT' },
          { loc: ['body', 'lineItems', 2, 'productId'], type: 'invalid', msg: 'no product 4242' },
          { loc: ['body', 'customer', 'email'], type: 'invalid', msg: 'not an email' },
        ],
      },
      { lineProducts: [1028, 1035, 4242], product },
    );
    expect(message).toBe(
      'The server refused it: Glucosamine & Chondroitin is discontinued; ' +
        'Whey Powder is a draft product, not released yet; ' +
        "Product 4242 is not in the partner's catalog; Email: not an email",
    );
    expect(message).not.toMatch(/DISCONTINUED|Product 1 ID/);
  });

  it('keeps the server words for any other issue on a line, with the field named', () => {
    expect(
      describeJobError(
        {
          kind: 'validation',
          issues: [
            { loc: ['body', 'lineItems', 0, 'productId'], type: 'invalid', msg: 'listed twice' },
          ],
        },
        { lineProducts: [1028], product },
      ),
    ).toBe('The server refused it: Product 1 ID: listed twice');
  });
});
