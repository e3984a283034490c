import { fireEvent, render, screen, within } from '@testing-library/react';
import { Router } from 'wouter';
import { beforeEach, describe, expect, it } from 'vitest';
import type { PracticeState } from '@shared/practice-views';
import { Sidebar } from '@renderer/components/Sidebar';
import { useGuardedHashLocation } from '@renderer/lib/navigation-guard';
import { useAppStore } from '@renderer/stores/app-store';
import { installOrderDesk, pass } from '@test/support/component/fake-order-desk';

const practice = (enabled: boolean): PracticeState => ({
  available: true,
  enabled,
  offline: false,
  server: 'normal',
  fulfillment: { paused: false, speed: 'normal' },
});

beforeEach(() =>
  useAppStore.setState(
    {
      ...useAppStore.getInitialState(),
      platform: 'linux',
      version: '1.4.0',
      outbox: { pending: 0, inDoubt: 0, conflicts: 3 },
    },
    true,
  ),
);

function renderSidebar(hash: string) {
  window.history.replaceState(null, '', hash);
  return render(
    <Router hook={useGuardedHashLocation}>
      <Sidebar />
    </Router>,
  );
}

describe('Sidebar: the screens, their shortcuts and where the user is', () => {
  it('lists every screen with its shortcut, marks the current one and counts the conflicts', async () => {
    installOrderDesk({ 'practice.state': () => practice(false) });
    renderSidebar('#/orders/ord_1001');
    await pass(0);
    const nav = screen.getByRole('navigation', { name: 'Main' });
    const links = within(nav).getAllByRole('link');
    expect(links.map((a) => a.getAttribute('href'))).toEqual([
      '#/dashboard',
      '#/protocols',
      '#/orders',
      '#/batches',
      '#/refills',
      '#/conflicts',
      '#/catalog',
      '#/settings',
      '#/connect',
      '#/patients',
      '#/activity',
    ]);
    const orders = within(nav).getByRole('link', { name: 'Orders' });
    expect(orders.getAttribute('aria-current')).toBe('page');
    expect(orders.getAttribute('aria-keyshortcuts')).toBe('Control+2');
    expect(orders.getAttribute('title')).toBe('Orders (Ctrl+2)');
    expect(links.filter((a) => a.getAttribute('aria-current'))).toHaveLength(1);
    // The dashboard came after every digit was taken: Ctrl+Shift+D, no earlier key moved.
    const dashboard = within(nav).getByRole('link', { name: 'Dashboard' });
    expect(dashboard.getAttribute('aria-keyshortcuts')).toBe('Control+Shift+D');
    expect(dashboard.getAttribute('title')).toBe('Dashboard (Ctrl+⇧D)');
    expect(screen.getByTestId('conflicts-count').textContent).toBe('3 to resolve');
    expect(screen.getByText('Version 1.4.0')).toBeTruthy();
  });

  it('the arrows move between the links, Home and End to the ends', async () => {
    installOrderDesk({ 'practice.state': () => practice(false) });
    renderSidebar('#/protocols');
    await pass(0);
    const nav = screen.getByRole('navigation', { name: 'Main' });
    const links = within(nav).getAllByRole('link');
    links[0]!.focus();
    fireEvent.keyDown(links[0]!, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(links[1]);
    fireEvent.keyDown(links[1]!, { key: 'End' });
    expect(document.activeElement).toBe(links.at(-1));
    fireEvent.keyDown(links.at(-1)!, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(links[0]);
    fireEvent.keyDown(links[0]!, { key: 'ArrowUp' });
    expect(document.activeElement).toBe(links.at(-1));
  });

  it('practice mode on: a Practice link; a Mac shows ⌘', async () => {
    useAppStore.setState({ platform: 'darwin' });
    installOrderDesk({ 'practice.state': () => practice(true) });
    renderSidebar('#/practice');
    const link = await screen.findByRole('link', { name: 'Practice' });
    expect(link.getAttribute('aria-current')).toBe('page');
    expect(screen.getByRole('link', { name: 'Orders' }).getAttribute('title')).toBe('Orders (⌘2)');
  });
});
