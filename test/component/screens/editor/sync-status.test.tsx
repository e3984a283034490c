import { render, screen } from '@testing-library/react';
import { Router } from 'wouter';
import { describe, expect, it } from 'vitest';
import type { ProtocolView } from '@shared/protocol-views';
import { SyncStatus } from '@renderer/screens/editor/SyncStatus';
import { useGuardedHashLocation } from '@renderer/lib/navigation-guard';
import { order, savedProtocol } from '@test/support/component/fixtures';

const base = savedProtocol(
  {
    customer: order().customer,
    daysSupply: 30,
    shippingMethod: 'STANDARD',
    orderType: 'ONE_TIME',
    lineItems: [
      {
        productId: 101,
        quantity: 2,
        administration: { morning: 0, afternoon: 0, evening: 1, sleep: 1 },
      },
    ],
  },
  '7d0f5a0e-3c4b-4e0b-9a55-2f1f3f6b8c11',
);

function said(view: ProtocolView, online = true) {
  const { unmount } = render(
    <Router hook={useGuardedHashLocation}>
      <SyncStatus view={view} online={online} />
    </Router>,
  );
  const status = screen.getByRole('status');
  const text = [status.getAttribute('data-sync'), status.textContent];
  unmount();
  return text;
}

const change = (over: Partial<NonNullable<ProtocolView['change']>>) => ({
  ...base,
  change: { op: 'update' as const, state: 'queued' as const, attempts: 0, message: null, ...over },
});

describe('SyncStatus: where the saved protocol stands with the server', () => {
  it('synced, waiting, sending, or kept here while offline', () => {
    expect(said({ ...base, syncState: 'synced', change: null })).toEqual([
      'synced',
      ' Synced with the server.',
    ]);
    expect(said(base)).toEqual(['pending', ' Pending: waiting to be sent.']);
    expect(said(change({ state: 'sending' }))).toEqual([
      'pending',
      ' Pending: sending to the server…',
    ]);
    expect(said(base, false)).toEqual([
      'pending',
      ' Pending: saved on this computerIt will be sent when the server is back.',
    ]);
    expect(said(change({ message: 'The server answered 503.' }))[1]).toContain(
      'Last try: The server answered 503.',
    );
  });

  it('in doubt, refused (with the reason) or in conflict (with the way to resolve it)', () => {
    expect(said(change({ state: 'in_doubt' }))[0]).toBe('in-doubt');
    const refused = said(change({ state: 'rejected', message: 'Email: must be an email address' }));
    expect(refused[0]).toBe('rejected');
    expect(refused[1]).toContain('The server refused this protocol');
    expect(refused[1]).toContain('Fix it and save again.');
    render(
      <Router hook={useGuardedHashLocation}>
        <SyncStatus view={{ ...base, syncState: 'conflict' }} online />
      </Router>,
    );
    expect(screen.getByRole('status').textContent).toContain('Conflict with the server');
    expect(screen.getByRole('link', { name: 'Resolve it in Conflicts' }).getAttribute('href')).toBe(
      '#/conflicts',
    );
  });
});
