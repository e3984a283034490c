import { describe, expect, it } from 'vitest';
import { describeFieldErrors } from '@main/ipc/errors';
import { describeJobError } from '@main/ipc/views';
import { BatchRejectedError, describeProblem } from '@main/orders/order-requests';
import { fieldName, fieldPath } from '@shared/field-names';
import { serverIssues } from '@renderer/lib/server-issues';

describe('field names: one name for the patient ID', () => {
  it('names a field as the form labels it', () => {
    expect(fieldName(['customer', 'sourceId'])).toBe('Patient ID');
    expect(fieldName(['draft', 'customer', 'sourceId'])).toBe('Patient ID');
    expect(fieldName('body.customer.address.zipCode')).toBe('ZIP code');
    expect(fieldName(['lineItems', 0, 'productId'])).toBe('Product 1 ID');
    expect(fieldName(['lineItems', 2, 'administration', 'sleep'])).toBe('Product 3 bedtime');
    expect(fieldName(['supportEmail'])).toBe('supportEmail');
  });

  it('finds the path back from the name', () => {
    expect(fieldPath('Patient ID')).toBe('customer.sourceId');
    expect(fieldPath('Product 3 bedtime')).toBe('lineItems.2.administration.sleep');
    expect(fieldPath('Product 1 ID')).toBe('lineItems.0.productId');
    expect(fieldPath('customer.email')).toBe('customer.email');
    expect(fieldPath('Something else')).toBeNull();
  });

  it("main's messages that reach the window say Patient ID, never sourceId", () => {
    const messages = [
      describeFieldErrors([{ path: ['draft', 'customer', 'sourceId'], message: 'required' }]),
      describeJobError({
        kind: 'validation',
        issues: [{ loc: ['body', 'customer', 'sourceId'], type: 'missing', msg: 'required' }],
      }),
      describeProblem({ path: 'customer.sourceId', message: 'required' }),
      new BatchRejectedError([
        {
          protocolLocalId: 'p1',
          label: 'Ada Lee (P-1)',
          problems: [{ path: 'customer.sourceId', message: 'required' }],
        },
      ]).message,
    ];
    for (const message of messages) {
      expect(message).toContain('Patient ID: required');
      expect(message).not.toMatch(/sourceId|Source ID/);
    }
    // The editor still puts the server's refusal on its field.
    expect(serverIssues(messages[1]!)).toEqual([
      { path: 'customer.sourceId', message: 'required' },
    ]);
  });
});
