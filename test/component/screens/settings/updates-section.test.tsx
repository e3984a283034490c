import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { UpdatesView } from '@shared/update-views';
import { UpdatesSection } from '@renderer/screens/settings/UpdatesSection';
import { useAppStore } from '@renderer/stores/app-store';
import { useUpdatesStore } from '@renderer/stores/updates-store';
import { installOrderDesk, refuse } from '@test/support/component/fake-order-desk';

const FEED = 'https://updates.example.com/order-desk/';

const view = (over: Partial<UpdatesView>): UpdatesView =>
  UpdatesView.parse({
    settings: { enabled: false, feedUrl: null },
    supported: true,
    phase: 'off',
    version: null,
    percent: null,
    message: null,
    checkedAt: null,
    batchRunning: false,
    intervalMinutes: 240,
    seq: 1,
    ...over,
  });

beforeEach(() => {
  act(() => {
    useUpdatesStore.setState({ state: 'idle', view: null, error: null });
    useAppStore.setState({ version: '1.4.0' });
  });
});

describe('UpdatesSection', () => {
  it('off: says so, cannot check, and turns updates on with a feed', async () => {
    const desk = installOrderDesk({
      'updates.get': () => view({}),
      'updates.configure': (settings) => view({ settings, phase: 'idle', seq: 2 }),
    });
    const user = userEvent.setup();
    render(<UpdatesSection />);
    expect(
      await screen.findByText('Updates are off. Order Desk 1.4.0 does not look for new versions.'),
    ).toBeTruthy();
    expect(screen.getByText(/checks when it starts and every 4 hours/)).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Check now' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    expect(screen.getByText('Turn updates on and save to check.')).toBeTruthy();
    await user.click(screen.getByRole('switch', { name: 'Check for updates and download them' }));
    await user.type(screen.getByLabelText('Update feed URL'), FEED);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(desk.argsOf('updates.configure')).toEqual([{ enabled: true, feedUrl: FEED }]),
    );
    expect(await screen.findByText('Update settings saved. Updates are on.')).toBeTruthy();
    expect(screen.getByText('Updates are on. The first check runs shortly.')).toBeTruthy();
  });

  it('on: checks now, and a downloaded version restarts to install', async () => {
    const on = { enabled: true, feedUrl: FEED };
    const desk = installOrderDesk({
      'updates.get': () => view({ settings: on, phase: 'up-to-date' }),
      'updates.check': () => view({ settings: on, phase: 'ready', version: '1.5.0', seq: 2 }),
      'updates.install': () => null,
    });
    const user = userEvent.setup();
    render(<UpdatesSection />);
    expect(await screen.findByText('Order Desk 1.4.0 is up to date.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Check now' }));
    expect(
      await screen.findByText(
        'Version 1.5.0 is downloaded. It is installed when you restart Order Desk, or when it quits.',
      ),
    ).toBeTruthy();
    expect(desk.argsOf('updates.check')).toEqual([{}]);
    await user.click(screen.getByRole('button', { name: 'Restart to update' }));
    await waitFor(() => expect(desk.argsOf('updates.install')).toEqual([{}]));
  });

  it('a downloaded version waits while a batch sends; a feed main refuses is marked', async () => {
    const on = { enabled: true, feedUrl: FEED };
    installOrderDesk({
      'updates.get': () =>
        view({ settings: on, phase: 'ready', version: '1.5.0', batchRunning: true }),
      'updates.configure': () =>
        refuse('validation', 'Not saved.', [{ path: ['feedUrl'], message: 'not reachable' }]),
    });
    const user = userEvent.setup();
    render(<UpdatesSection />);
    const restart = await screen.findByRole('button', { name: 'Restart to update' });
    expect((restart as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText(/A batch is sending orders/)).toBeTruthy();
    const feed = screen.getByLabelText('Update feed URL');
    await user.clear(feed);
    await user.type(feed, 'https://other.example.com/feed/');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Update settings not saved: check the feed URL.',
    );
    expect(feed.getAttribute('aria-invalid')).toBe('true');
  });

  it('in the browser host, keeps only the settings', async () => {
    installOrderDesk({ 'updates.get': () => view({ supported: false }) });
    render(<UpdatesSection />);
    expect(await screen.findByText(/Updates apply to the installed desktop app/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Check now' })).toBeNull();
  });
});
