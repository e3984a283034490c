import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Router } from 'wouter';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ConnectionView } from '@shared/ipc';
import { useGuardedHashLocation } from '@renderer/lib/navigation-guard';
import { SavedConnections } from '@renderer/screens/connect/SavedConnections';
import { useSwitchConnection } from '@renderer/screens/connect/use-switch';
import { useAppStore } from '@renderer/stores/app-store';
import { useToastStore } from '@renderer/stores/toast-store';
import { installOrderDesk, pass, refuse } from '@test/support/component/fake-order-desk';
import { EMBEDDED, PARTNER, PRODUCTION } from '@test/support/component/connections';

beforeEach(() => {
  useAppStore.setState({ ...useAppStore.getInitialState(), connection: EMBEDDED }, true);
  useToastStore.setState(useToastStore.getInitialState(), true);
});

function Saved({ hideWhenEmpty = false }: { hideWhenEmpty?: boolean }) {
  const switcher = useSwitchConnection();
  return <SavedConnections switcher={switcher} hideWhenEmpty={hideWhenEmpty} />;
}

function renderSaved(hideWhenEmpty = false) {
  window.history.replaceState(null, '', '#/connect');
  return render(
    <Router hook={useGuardedHashLocation}>
      <Saved hideWhenEmpty={hideWhenEmpty} />
    </Router>,
  );
}

const activated = (c: ConnectionView): ConnectionView => ({ ...c, isActive: true });

describe('SavedConnections: switch to a saved connection, edit or remove it', () => {
  it('lists each with its kind and state; Switch activates it and goes to the first screen, the dashboard', async () => {
    const desk = installOrderDesk({
      'connections.list': () => [EMBEDDED, PARTNER, PRODUCTION],
      'connections.activate': () => activated(PARTNER),
    });
    renderSaved();
    const list = await screen.findByRole('list');
    const items = within(list).getAllByRole('listitem');
    expect(items[0]!.textContent).toContain('Local sandboxActive');
    expect(items[1]!.textContent).toContain(
      'https://sandbox.partner.example/v1 · client clinic-desk',
    );
    expect(items[2]!.textContent).toContain('Its client secret is missing from the keychain');
    expect(within(items[0]!).queryByRole('button', { name: /^Remove/ })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Switch to Acme sandbox' }));
    expect(desk.argsOf('connections.activate')).toEqual([{ id: 'conn-sandbox' }]);
    await waitFor(() => expect(window.location.hash).toBe('#/dashboard'));
    expect(useAppStore.getState().connection?.id).toBe('conn-sandbox');
    expect(useToastStore.getState().toasts[0]?.title).toBe('Connected to Acme sandbox.');
  });

  it('Remove says what it deletes, and removes only once confirmed', async () => {
    const desk = installOrderDesk({
      'connections.list': () => [EMBEDDED, PARTNER],
      'connections.removal': ({ id }) => ({
        id,
        label: 'Acme sandbox',
        storeFile: '/home/clinic/.config/Order Desk/connections/conn-sandbox.db',
        bytes: 4096,
        protocols: 12,
        unsentChanges: 2,
        batches: 3,
        unfinishedBatches: 1,
        orders: 40,
      }),
      'connections.remove': () => ({ removed: true }),
    });
    renderSaved();
    await userEvent.click(await screen.findByRole('button', { name: 'Remove Acme sandbox' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Remove Acme sandbox?' });
    const summary = within(dialog).getByTestId('removal-summary').textContent;
    expect(summary).toContain('12 protocols');
    expect(summary).toContain('2 changes not yet sent to the server, which will never reach it');
    expect(summary).toContain('3 batches, 1 unfinished: its remaining orders will never be sent');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(desk.argsOf('connections.remove')).toEqual([]);
    await userEvent.click(screen.getByRole('button', { name: 'Remove Acme sandbox' }));
    await userEvent.click(
      await screen.findByRole('button', { name: 'Remove and delete its data' }),
    );
    expect(desk.argsOf('connections.remove')).toEqual([{ id: 'conn-sandbox' }]);
    await waitFor(() =>
      expect(useToastStore.getState().toasts[0]?.title).toBe('Removed Acme sandbox and its data.'),
    );
  });

  it('Edit: the secret must be entered again when it is missing; the edit is saved with it', async () => {
    const desk = installOrderDesk({
      'connections.list': () => [EMBEDDED, PRODUCTION],
      'connections.update': () => activated({ ...PRODUCTION, secretMissing: false }),
    });
    renderSaved();
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Production' }));
    const form = screen.getByRole('form', { name: 'Edit Production' });
    const secret = within(form).getByLabelText('Client secret');
    await userEvent.click(within(form).getByRole('button', { name: 'Save and connect' }));
    expect(secret.getAttribute('aria-invalid')).toBe('true');
    expect(desk.argsOf('connections.update')).toEqual([]);
    await userEvent.type(secret, 's3cret-value');
    await userEvent.click(within(form).getByRole('button', { name: 'Save and connect' }));
    await waitFor(() => expect(desk.argsOf('connections.update')).toHaveLength(1));
    expect(desk.argsOf('connections.update')[0]).toEqual({
      id: 'conn-prod',
      kind: 'production',
      label: 'Production',
      baseUrl: 'https://api.partner.example/v1',
      authUrl: 'https://auth.partner.example',
      clientId: 'clinic-desk',
      clientSecret: 's3cret-value',
    });
    // Saved: the form closes and the screen stays.
    await waitFor(() => expect(screen.queryByRole('form')).toBeNull());
    expect(window.location.hash).toBe('#/connect');
  });

  it('a list that cannot be read says so and tries again; an empty first run shows nothing', async () => {
    let fail = true;
    installOrderDesk({
      'connections.list': () => (fail ? refuse('storage', 'The disk is unreadable.') : []),
    });
    const { unmount } = renderSaved();
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Saved connections could not be loaded.',
    );
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No saved connections yet.')).toBeTruthy();
    unmount();
    const { container } = renderSaved(true);
    await pass(0);
    expect(container.innerHTML).toBe('');
  });
});
