import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { UpdatesView } from '@shared/update-views';
import { PartnerSettingsForm } from '@renderer/screens/settings/PartnerSettingsForm';
import SettingsScreen from '@renderer/screens/settings/SettingsScreen';
import { useAppStore } from '@renderer/stores/app-store';
import { useSettingsStore } from '@renderer/stores/settings-store';
import { useUpdatesStore } from '@renderer/stores/updates-store';
import { installOrderDesk, refuse } from '@test/support/component/fake-order-desk';
import { partnerSettings } from '@test/support/component/fixtures';

const SETTINGS = partnerSettings({
  description: 'Integrative care in Portland.',
  discount: null,
  primaryColor: '#1d4ed8',
});

const UPDATES = UpdatesView.parse({
  settings: { enabled: false, feedUrl: null },
  supported: false,
  phase: 'off',
  version: null,
  percent: null,
  message: null,
  checkedAt: null,
  batchRunning: false,
  intervalMinutes: 240,
  seq: 1,
});

beforeEach(() => {
  act(() => {
    useSettingsStore.setState({ state: 'idle', settings: null, error: null });
    useUpdatesStore.setState({ state: 'idle', view: null, error: null });
    useAppStore.setState({ staff: [], theme: 'system' });
  });
});

describe('SettingsScreen', () => {
  it('shows the partner’s facts, its form, and every section of the desk', async () => {
    installOrderDesk({ 'settings.get': () => SETTINGS, 'updates.get': () => UPDATES });
    render(<SettingsScreen />);
    const partner = await screen.findByRole('region', { name: 'Partner' });
    expect(partner.textContent).toContain('NameEvergreen Clinic');
    expect(partner.textContent).toContain('Partner IDptn_1');
    // No discount in words: the value as a percentage.
    expect(partner.textContent).toContain('Discount15%');
    expect(partner.textContent).toContain('Integrative care in Portland.');
    expect(screen.getByRole('form', { name: 'Partner settings' })).toBeTruthy();
    await screen.findByRole('form', { name: 'Update settings' });
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual([
      'Partner',
      'Partner settings',
      'Webhook secret',
      'Appearance',
      'Notifications',
      'First screen',
      'Updates',
      'People at this desk',
      'Activity record',
    ]);
  });

  it('says the partner settings could not be loaded, and loads them again on asking', async () => {
    let fail = true;
    const desk = installOrderDesk({
      'settings.get': () =>
        fail ? refuse('network', 'The server could not be reached.') : SETTINGS,
      'updates.get': () => UPDATES,
    });
    render(<SettingsScreen />);
    const alert = await screen.findByText(/Partner settings could not be loaded\./);
    fail = false;
    await userEvent.click(
      within(alert.closest('[role="alert"]')!).getByRole('button', { name: 'Try again' }),
    );
    expect(await screen.findByRole('region', { name: 'Partner' })).toBeTruthy();
    expect(desk.argsOf('settings.get')).toHaveLength(2);
  });
});

describe('ColorField (in PartnerSettingsForm)', () => {
  it('a color typed in short form sets the picker; a color picked fills the field', async () => {
    const desk = installOrderDesk({ 'settings.update': (patch) => ({ ...SETTINGS, ...patch }) });
    const user = userEvent.setup();
    render(<PartnerSettingsForm settings={SETTINGS} />);
    const secondary = screen.getByLabelText('Secondary color');
    const picker = screen.getByLabelText('Pick secondary color') as HTMLInputElement;
    expect(picker.value).toBe('#000000');
    await user.type(secondary, '#abc');
    expect(picker.value).toBe('#aabbcc');
    fireEvent.change(screen.getByLabelText('Pick primary color'), {
      target: { value: '#22aa66' },
    });
    expect((screen.getByLabelText('Primary color') as HTMLInputElement).value).toBe('#22aa66');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() =>
      expect(desk.argsOf('settings.update')).toEqual([
        { primaryColor: '#22aa66', secondaryColor: '#abc' },
      ]),
    );
  });

  it('marks a color that is no hex color', async () => {
    installOrderDesk({});
    const user = userEvent.setup();
    render(<PartnerSettingsForm settings={SETTINGS} />);
    const secondary = screen.getByLabelText('Secondary color');
    await user.type(secondary, 'teal');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(secondary.getAttribute('aria-invalid')).toBe('true'));
  });
});
