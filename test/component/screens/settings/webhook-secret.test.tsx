import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { WebhookSecret } from '@renderer/screens/settings/WebhookSecret';
import { installOrderDesk, refuse } from '@test/support/component/fake-order-desk';

const HOOK = 'https://clinic.example/hooks/orders';

describe('WebhookSecret: hidden until asked for, read through its command module', () => {
  it('Reveal reads the secret once and shows it; Hide hides it again', async () => {
    const desk = installOrderDesk({
      'settings.revealWebhookSecret': () => ({ secret: 'whsec_test_1234' }),
    });
    render(<WebhookSecret webhookUrl={HOOK} />);
    expect(screen.getByLabelText('Webhook secret (hidden)')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Reveal secret' }));
    expect(
      (await screen.findByRole('textbox', { name: 'Webhook secret' })).getAttribute('value'),
    ).toBe('whsec_test_1234');
    await userEvent.click(screen.getByRole('button', { name: 'Hide secret' }));
    await userEvent.click(screen.getByRole('button', { name: 'Reveal secret' }));
    // Kept while the screen is open: a second Reveal asks main nothing.
    expect(desk.argsOf('settings.revealWebhookSecret')).toHaveLength(1);
  });

  it('a refused read says why and shows nothing', async () => {
    installOrderDesk({
      'settings.revealWebhookSecret': () => refuse('keychain', 'The keychain is locked.'),
    });
    render(<WebhookSecret webhookUrl={HOOK} />);
    await userEvent.click(screen.getByRole('button', { name: 'Reveal secret' }));
    expect((await screen.findByText(/The secret could not be read/)).textContent).toContain(
      'The keychain is locked.',
    );
    expect(screen.queryByRole('textbox', { name: 'Webhook secret' })).toBeNull();
  });
});
