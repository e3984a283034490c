import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { StartupScreen } from '@renderer/screens/startup/StartupScreen';

const idle = {
  busy: false,
  retry: vi.fn(() => Promise.resolve()),
  startFresh: vi.fn(() => Promise.resolve()),
};

describe('StartupScreen: the phases the gate cannot show as the app', () => {
  it('main failed to open the data: says why, and tries again', async () => {
    const retry = vi.fn(() => Promise.resolve());
    render(
      <StartupScreen
        {...idle}
        retry={retry}
        error={null}
        view={{ phase: 'failed', message: 'The database file is locked by another process.' }}
      />,
    );
    expect(
      screen.getByRole('heading', { level: 1, name: 'Order Desk could not open its data' }),
    ).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe(
      'The database file is locked by another process.',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(retry).toHaveBeenCalledTimes(1);
  });

  it('main could not be asked: says so; a request on its way keeps Try again waiting', () => {
    render(
      <StartupScreen {...idle} busy view={null} error="The window lost its link to Order Desk." />,
    );
    expect(
      screen.getByRole('heading', { level: 1, name: 'Order Desk could not start' }),
    ).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('The window lost its link to Order Desk.');
    expect((screen.getByRole('button', { name: 'Try again' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
  });
});
