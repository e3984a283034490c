import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Router } from 'wouter';
import { beforeEach, describe, expect, it } from 'vitest';
import { useGuardedHashLocation } from '@renderer/lib/navigation-guard';
import ConnectScreen from '@renderer/screens/connect/ConnectScreen';
import { useAppStore } from '@renderer/stores/app-store';
import { useToastStore } from '@renderer/stores/toast-store';
import { installOrderDesk, pass } from '@test/support/component/fake-order-desk';
import { EMBEDDED, PARTNER } from '@test/support/component/connections';

beforeEach(() => {
  useAppStore.setState(useAppStore.getInitialState(), true);
  useToastStore.setState(useToastStore.getInitialState(), true);
});

function renderConnect(firstRun: boolean) {
  window.history.replaceState(null, '', '#/connect');
  return render(
    <Router hook={useGuardedHashLocation}>
      <ConnectScreen firstRun={firstRun} />
    </Router>,
  );
}

describe('ConnectScreen: where Order Desk sends its work', () => {
  it('first run: welcomes, and starts the local sandbox through connections.useEmbedded', async () => {
    const desk = installOrderDesk({
      'connections.list': () => [],
      'connections.useEmbedded': () => EMBEDDED,
    });
    renderConnect(true);
    await pass(0);
    expect(screen.getByRole('heading', { level: 1, name: 'Welcome to Order Desk' })).toBeTruthy();
    // Nothing saved yet: no list of saved connections to say "none".
    expect(screen.queryByRole('heading', { name: 'Saved connections' })).toBeNull();
    expect(screen.getByRole('radio', { name: /^Local sandbox \(built in\)/ })).toHaveProperty(
      'checked',
      true,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Use the local sandbox' }));
    expect(desk.argsOf('connections.useEmbedded')).toEqual([{}]);
    await waitFor(() => expect(window.location.hash).toBe('#/dashboard'));
    expect(useAppStore.getState().connection?.id).toBe('embedded');
  });

  it('a partner server: its form, what was typed kept across sandbox and production', async () => {
    installOrderDesk({ 'connections.list': () => [EMBEDDED] });
    renderConnect(true);
    const user = userEvent.setup();
    await user.click(screen.getByRole('radio', { name: /^Partner sandbox/ }));
    const sandbox = screen.getByRole('form', { name: 'Connect to a partner sandbox' });
    await user.type(within(sandbox).getByLabelText('Client ID'), 'clinic-desk');
    await user.click(screen.getByRole('radio', { name: /^Production/ }));
    const production = screen.getByRole('form', { name: 'Connect to production' });
    expect(production.textContent).toContain('Orders sent to production are real');
    expect(within(production).getByLabelText('Label')).toHaveProperty('value', 'Production');
    await user.click(screen.getByRole('radio', { name: /^Partner sandbox/ }));
    expect(
      within(screen.getByRole('form', { name: 'Connect to a partner sandbox' })).getByLabelText(
        'Client ID',
      ),
    ).toHaveProperty('value', 'clinic-desk');
    expect(await screen.findByRole('heading', { name: 'Saved connections' })).toBeTruthy();
  });

  it('on the local sandbox: offers practice mode and another server, and lists the saved ones', async () => {
    useAppStore.setState({ connection: EMBEDDED, secretStorage: 'memory' });
    installOrderDesk({
      'connections.list': () => [EMBEDDED, PARTNER],
      'practice.state': () => ({
        available: true,
        enabled: false,
        offline: false,
        server: 'normal',
        fulfillment: { paused: false, speed: 'normal' },
      }),
    });
    renderConnect(false);
    expect(screen.getByRole('heading', { level: 1, name: 'Connection' })).toBeTruthy();
    expect(
      await screen.findByRole('switch', { name: 'Practice on the local sandbox' }),
    ).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Switch to Acme sandbox' })).toBeTruthy();
    expect(screen.getByRole('radio', { name: /^Partner sandbox/ })).toHaveProperty('checked', true);
    expect(document.getElementById('keys-in-memory')?.textContent).toContain('--memory-keychain');
    await userEvent.click(screen.getByRole('radio', { name: /^Local sandbox \(built in\)/ }));
    expect(screen.getByRole('status').textContent).toContain(
      'Order Desk is using the local sandbox now.',
    );
  });
});
