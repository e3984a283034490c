import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { PartnerSettings } from '../../src/shared/api';
import { PartnerSettingsForm } from '../../src/renderer/src/screens/settings/PartnerSettingsForm';
import { installOrderDesk, refuse } from '../support/component/fake-order-desk';

const SETTINGS = PartnerSettings.parse({
  id: 'ptn_1',
  name: 'Evergreen Clinic',
  description: null,
  discount: '15%',
  discountValue: 0.15,
  primaryColor: '#1d4ed8',
  secondaryColor: null,
  logo: null,
  phone: '+1 503 555 0199',
  supportEmail: 'support@evergreen-clinic.example',
  website: null,
  webhookUrl: null,
  billingAddressLine1: null,
  billingAddressLine2: null,
  billingCity: null,
  billingState: null,
  billingPostalCode: null,
  billingCountry: null,
  createdAt: '2026-01-05T00:00:00.000Z',
  updatedAt: '2026-01-05T00:00:00.000Z',
});

async function changeWebhookAndSave() {
  const user = userEvent.setup();
  render(<PartnerSettingsForm settings={SETTINGS} />);
  const form = screen.getByRole('form', { name: 'Partner settings' });
  await user.type(within(form).getByLabelText('Webhook URL'), 'https://clinic.example/hook');
  await user.click(within(form).getByRole('button', { name: 'Save changes' }));
  return form;
}

describe('a failed Settings save', () => {
  it('puts the focus on the first field the server refused', async () => {
    installOrderDesk({
      'settings.update': () =>
        refuse('validation', 'The server refused the settings.', [
          { path: ['webhookUrl'], message: 'a public host, not a loopback address' },
        ]),
    });
    const form = await changeWebhookAndSave();
    const webhook = within(form).getByLabelText('Webhook URL');
    await waitFor(() => expect(webhook.getAttribute('aria-invalid')).toBe('true'));
    expect(document.activeElement).toBe(webhook);
  });

  it('puts the focus on the error when no field is to blame', async () => {
    installOrderDesk({
      'settings.update': () => refuse('network', 'The server could not be reached.'),
    });
    const form = await changeWebhookAndSave();
    const alert = await within(form).findByRole('alert');
    expect(alert.textContent).toMatch(/^Settings not saved\./);
    await waitFor(() => expect(document.activeElement).toBe(alert));
  });
});
