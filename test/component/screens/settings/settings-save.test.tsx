import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { PartnerSettingsForm } from '@renderer/screens/settings/PartnerSettingsForm';
import { installOrderDesk, refuse } from '@test/support/component/fake-order-desk';
import { partnerSettings } from '@test/support/component/fixtures';

const SETTINGS = partnerSettings({
  primaryColor: '#1d4ed8',
  phone: '+1 503 555 0199',
  supportEmail: 'support@evergreen-clinic.example',
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
