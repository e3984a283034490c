import { render, screen } from '@testing-library/react';
import { Router } from 'wouter';
import { describe, expect, it } from 'vitest';
import { PracticeState } from '@shared/practice-views';
import { useGuardedHashLocation } from '@renderer/lib/navigation-guard';
import PracticeScreen from '@renderer/screens/practice/PracticeScreen';
import { installOrderDesk } from '@test/support/component/fake-order-desk';

const state = (over: Partial<PracticeState>): PracticeState =>
  PracticeState.parse({
    available: true,
    enabled: true,
    offline: false,
    server: 'normal',
    fulfillment: { paused: false, speed: 'normal' },
    ...over,
  });

function renderScreen() {
  window.history.replaceState(null, '', '#/practice');
  return render(
    <Router hook={useGuardedHashLocation}>
      <PracticeScreen />
    </Router>,
  );
}

describe('PracticeScreen', () => {
  it('with practice mode on, shows every control of the sandbox', async () => {
    installOrderDesk({
      'practice.state': () => state({ offline: true }),
      'orders.list': () => ({ orders: [], total: 0, possibleDuplicateOf: {} }),
      'protocols.list': () => ({ items: [], nextCursor: null }),
      'catalog.products': () => ({ products: [], total: 0 }),
    });
    renderScreen();
    expect(await screen.findByRole('heading', { name: 'Fulfillment' })).toBeTruthy();
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual([
      'Fulfillment',
      'Move an order',
      'The server',
      'Another desk',
      "A product's status",
    ]);
    // Offline: the server card says so and nothing can be moved or stepped.
    expect(screen.getByText(/The practice server is offline/)).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Step now' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    expect((screen.getByRole('button', { name: 'Move order' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
  });

  it('with practice mode off, says where to switch it on', async () => {
    installOrderDesk({ 'practice.state': () => state({ enabled: false }) });
    renderScreen();
    expect(await screen.findByText(/Practice mode is off/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Connection' }).getAttribute('href')).toBe('#/connect');
    expect(screen.queryByRole('heading', { name: 'Fulfillment' })).toBeNull();
  });
});
