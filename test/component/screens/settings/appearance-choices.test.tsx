import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { NotificationsChoice } from '@renderer/screens/settings/NotificationsChoice';
import { StartScreenChoice } from '@renderer/screens/settings/StartScreenChoice';
import { ThemeChoice } from '@renderer/screens/settings/ThemeChoice';
import { useAppStore } from '@renderer/stores/app-store';
import { installOrderDesk, refuse } from '@test/support/component/fake-order-desk';

beforeEach(() => {
  act(() =>
    useAppStore.setState({
      theme: 'system',
      notifications: true,
      transport: 'electron',
      startScreen: 'protocols',
    }),
  );
});

describe('ThemeChoice', () => {
  it('shows the theme main keeps and saves the one chosen', async () => {
    const desk = installOrderDesk({ 'app.setTheme': () => null });
    render(<ThemeChoice />);
    expect((screen.getByRole('radio', { name: 'System' }) as HTMLInputElement).checked).toBe(true);
    await userEvent.click(screen.getByRole('radio', { name: 'Dark' }));
    expect((screen.getByRole('radio', { name: 'Dark' }) as HTMLInputElement).checked).toBe(true);
    await waitFor(() => expect(desk.argsOf('app.setTheme')).toEqual([{ theme: 'dark' }]));
  });

  it('goes back to the theme it had when main refuses the change', async () => {
    installOrderDesk({
      'app.setTheme': () => refuse('internal', 'The settings file is read-only.'),
    });
    render(<ThemeChoice />);
    await userEvent.click(screen.getByRole('radio', { name: 'Light' }));
    await waitFor(() =>
      expect((screen.getByRole('radio', { name: 'System' }) as HTMLInputElement).checked).toBe(
        true,
      ),
    );
  });
});

describe('NotificationsChoice', () => {
  it('switches the notifications off through main and says how they appear', async () => {
    const desk = installOrderDesk({ 'app.setNotifications': () => null });
    render(<NotificationsChoice />);
    const toggle = screen.getByRole('switch', { name: 'Notify me about orders and batches' });
    expect((toggle as HTMLInputElement).checked).toBe(true);
    expect(screen.getByText(/a desktop notification appears/)).toBeTruthy();
    await userEvent.click(toggle);
    await waitFor(() => expect(desk.argsOf('app.setNotifications')).toEqual([{ enabled: false }]));
    expect((toggle as HTMLInputElement).checked).toBe(false);
  });

  it('in the browser host, says a message appears in the window', () => {
    act(() => useAppStore.setState({ transport: 'browser' }));
    render(<NotificationsChoice />);
    expect(screen.getByText(/a message appears in this window/)).toBeTruthy();
  });
});

describe('StartScreenChoice', () => {
  it('starts on Protocols until the dashboard is chosen, and goes back when main refuses', async () => {
    const desk = installOrderDesk({ 'app.setStartScreen': () => null });
    const { unmount } = render(<StartScreenChoice />);
    const radio = (name: string) => screen.getByRole('radio', { name }) as HTMLInputElement;
    expect(radio('Protocols').checked).toBe(true);
    await userEvent.click(radio('Dashboard'));
    await waitFor(() =>
      expect(desk.argsOf('app.setStartScreen')).toEqual([{ screen: 'dashboard' }]),
    );
    expect(useAppStore.getState().startScreen).toBe('dashboard');
    unmount();

    installOrderDesk({ 'app.setStartScreen': () => refuse('internal', 'Read-only.') });
    render(<StartScreenChoice />);
    await userEvent.click(radio('Protocols'));
    await waitFor(() => expect(radio('Dashboard').checked).toBe(true));
  });
});
