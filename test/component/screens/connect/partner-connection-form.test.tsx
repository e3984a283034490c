import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { Router } from 'wouter';
import { beforeEach, describe, expect, it } from 'vitest';
import { useGuardedHashLocation } from '@renderer/lib/navigation-guard';
import { PartnerConnectionForm } from '@renderer/screens/connect/PartnerConnectionForm';
import { useSwitchConnection } from '@renderer/screens/connect/use-switch';
import { useAppStore } from '@renderer/stores/app-store';
import { useToastStore } from '@renderer/stores/toast-store';
import { installOrderDesk, refuse } from '@test/support/component/fake-order-desk';
import { EMBEDDED, PARTNER } from '@test/support/component/connections';

const TYPED = {
  kind: 'partner-sandbox' as const,
  label: 'Partner sandbox',
  baseUrl: 'https://sandbox.partner.example/v1',
  authUrl: 'https://auth.sandbox.partner.example',
  clientId: 'clinic-desk',
  clientSecret: 's3cret-value',
};

beforeEach(() => {
  useAppStore.setState(
    {
      ...useAppStore.getInitialState(),
      connection: EMBEDDED,
      outbox: { pending: 2, inDoubt: 0, conflicts: 0 },
    },
    true,
  );
  useToastStore.setState(useToastStore.getInitialState(), true);
});

function NewPartner() {
  const switcher = useSwitchConnection();
  return <PartnerConnectionForm kind="partner-sandbox" switcher={switcher} />;
}

function renderForm() {
  window.history.replaceState(null, '', '#/connect');
  render(
    <Router hook={useGuardedHashLocation}>
      <NewPartner />
    </Router>,
  );
  return screen.getByRole('form', { name: 'Connect to a partner sandbox' });
}

async function fill(user: UserEvent, form: HTMLElement, baseUrl = TYPED.baseUrl) {
  const field = (label: string) => within(form).getByLabelText(label);
  await user.type(field('Base URL'), baseUrl);
  await user.type(field('Auth URL'), TYPED.authUrl);
  await user.type(field('Client ID'), TYPED.clientId);
  await user.type(field('Client secret'), TYPED.clientSecret);
}

describe('PartnerConnectionForm: a partner server’s address and credentials', () => {
  it('tests without saving, then connects, saying what waits on the connection left', async () => {
    const desk = installOrderDesk({
      'connections.test': () => ({ partnerName: 'Acme Pharmacy' }),
      'connections.connect': () => ({ ...PARTNER, label: 'Partner sandbox', isActive: true }),
    });
    const user = userEvent.setup();
    const form = renderForm();
    expect(within(form).getByLabelText('Label')).toHaveProperty('value', 'Partner sandbox');
    await fill(user, form);
    await user.click(within(form).getByRole('button', { name: 'Test connection' }));
    expect(await within(form).findByText(/Connection works: partner Acme Pharmacy\./)).toBeTruthy();
    expect(desk.argsOf('connections.test')).toEqual([TYPED]);
    await user.click(within(form).getByRole('button', { name: 'Connect' }));
    await waitFor(() => expect(window.location.hash).toBe('#/dashboard'));
    expect(desk.argsOf('connections.connect')).toEqual([TYPED]);
    expect(useToastStore.getState().toasts[0]?.title).toBe(
      'Connected to Partner sandbox. 2 unsent changes of Local sandbox stay with it and are sent when you switch back.',
    );
  });

  it('refuses plain http to another computer on the field, before anything is sent', async () => {
    const desk = installOrderDesk();
    const user = userEvent.setup();
    const form = renderForm();
    await fill(user, form, 'http://sandbox.partner.example/v1');
    await user.click(within(form).getByRole('button', { name: 'Connect' }));
    const base = within(form).getByLabelText('Base URL');
    await waitFor(() => expect(base.getAttribute('aria-invalid')).toBe('true'));
    expect(form.textContent).toContain(
      'Must use https (plain http only for a server on this computer)',
    );
    expect(desk.calls).toEqual([]);
  });

  it('the server’s refusal goes on the field it names', async () => {
    installOrderDesk({
      'connections.connect': () =>
        refuse('validation', 'The partner refused the client.', [
          { path: ['clientId'], message: 'unknown client id' },
        ]),
    });
    const user = userEvent.setup();
    const form = renderForm();
    await fill(user, form);
    await user.click(within(form).getByRole('button', { name: 'Connect' }));
    expect((await within(form).findByRole('alert')).textContent).toBe(
      'Some fields need attention: see the messages beside them.',
    );
    expect(within(form).getByLabelText('Client ID').getAttribute('aria-invalid')).toBe('true');
    expect(form.textContent).toContain('Unknown client id');
    expect(window.location.hash).toBe('#/connect');
  });
});
