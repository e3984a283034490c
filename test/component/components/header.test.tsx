import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Router } from 'wouter';
import { beforeEach, describe, expect, it } from 'vitest';
import { ConnectionView } from '@shared/ipc';
import type { PracticeState } from '@shared/practice-views';
import { Header } from '@renderer/components/Header';
import { useGuardedHashLocation } from '@renderer/lib/navigation-guard';
import { useAppStore } from '@renderer/stores/app-store';
import { useToastStore } from '@renderer/stores/toast-store';
import { installOrderDesk, pass, refuse } from '@test/support/component/fake-order-desk';

const PRODUCTION = ConnectionView.parse({
  id: 'conn-prod',
  kind: 'production',
  label: 'Clinic production',
  baseUrl: 'https://api.partner.example/v1',
  authUrl: 'https://auth.partner.example',
  clientId: 'clinic-desk',
  isActive: true,
});

const practice = (enabled: boolean): PracticeState => ({
  available: enabled,
  enabled,
  offline: false,
  server: 'normal',
  fulfillment: { paused: false, speed: 'normal' },
});

beforeEach(() => {
  useAppStore.setState(
    {
      ...useAppStore.getInitialState(),
      connection: PRODUCTION,
      outbox: { pending: 2, inDoubt: 1, conflicts: 1 },
      sync: { phase: 'idle', lastSyncedAt: null, error: null, skipped: [] },
    },
    true,
  );
  useToastStore.setState(useToastStore.getInitialState(), true);
});

async function renderHeader() {
  const view = render(
    <Router hook={useGuardedHashLocation}>
      <Header />
    </Router>,
  );
  await pass(0);
  return view;
}

describe('Header: the connection, what waits to be sent, and Sync now', () => {
  it('names the connection and its kind, counts what is unsynced, links the conflicts, syncs', async () => {
    const desk = installOrderDesk({
      'practice.state': () => practice(false),
      'sync.now': () => null,
    });
    await renderHeader();
    const header = screen.getByRole('banner');
    expect(within(header).getByText('Clinic production')).toBeTruthy();
    expect(within(header).getByText('Production').className).toBe('kind kind-production');
    expect(screen.getByTestId('connectivity').textContent).toBe('Online');
    expect(screen.getByTestId('unsynced-count').textContent).toBe(
      '4 unsynced changes (2 waiting to be sent, 1 being checked with the server, 1 conflict to resolve)',
    );
    // jsdom's name computation drops the spaces the header's short-window words start with.
    expect(
      screen.getByRole('link', { name: /^1 conflict\s*to resolve$/ }).getAttribute('href'),
    ).toBe('#/conflicts');
    expect(screen.getByTestId('sync-status').textContent).toBe('Not synced yet');
    expect(screen.queryByTestId('practice-marker')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Sync now' }));
    expect(desk.argsOf('sync.now')).toEqual([{}]);
  });

  it('a failed sync: the error in a line, all of it in Details', async () => {
    useAppStore.setState({
      sync: { phase: 'error', lastSyncedAt: null, error: 'The server answered 503.', skipped: [] },
    });
    installOrderDesk({ 'practice.state': () => practice(false) });
    await renderHeader();
    expect(screen.getByTestId('sync-status').textContent).toBe(
      'Sync failed: The server answered 503.',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Details of the sync error' }));
    const dialog = screen.getByRole('dialog', { name: 'The sync failed' });
    expect(dialog.textContent).toContain('The server answered 503.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('rejected credentials: says so with the way to enter the new secret, and no sync line', async () => {
    useAppStore.setState({ online: false, offlineReason: 'credentials-rejected' });
    installOrderDesk({ 'practice.state': () => practice(false) });
    await renderHeader();
    expect(screen.getByTestId('connectivity').textContent).toBe('Credentials rejected');
    const enter = screen.getByRole('link', { name: /^Enter\s*the new\s*secret$/ });
    expect(enter.getAttribute('href')).toBe('#/connect');
    expect(screen.queryByTestId('sync-status')).toBeNull();
  });

  it('a refused Sync now says nothing was synced, with the way to fix it', async () => {
    installOrderDesk({
      'practice.state': () => practice(false),
      'sync.now': () => refuse('unauthorized', 'The server refused the client secret.'),
    });
    await renderHeader();
    await userEvent.click(screen.getByRole('button', { name: 'Sync now' }));
    const [t] = useToastStore.getState().toasts;
    expect([t?.title, t?.link?.route]).toEqual(['Nothing was synced.', '/connect']);
  });

  it('the host stopped: says so, and Sync now waits; practice mode shows its marker', async () => {
    useAppStore.setState({ hostUp: false });
    installOrderDesk({ 'practice.state': () => practice(true) });
    await renderHeader();
    expect(await screen.findByTestId('practice-marker')).toBeTruthy();
    expect(screen.getByTestId('connectivity').textContent).toBe('Order Desk not running');
    expect((screen.getByRole('button', { name: 'Sync now' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
  });
});
