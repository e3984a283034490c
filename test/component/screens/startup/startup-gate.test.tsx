import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { StartupView } from '@shared/startup-views';
import { StartupGate } from '@renderer/screens/startup/StartupGate';
import { installOrderDesk } from '@test/support/component/fake-order-desk';

const DATA_DIR = '/home/clinic/.config/Order Desk';
const FILES = [`${DATA_DIR}/app.db`, `${DATA_DIR}/connections/embedded.db`];
const LOCKED: StartupView = {
  phase: 'locked',
  reason: 'key-missing',
  message: "The key to this desk's data is not in this computer's keychain.",
  files: FILES,
  dataDir: DATA_DIR,
  canStartFresh: true,
};

function renderGate() {
  return render(
    <StartupGate>
      <p>The app</p>
    </StartupGate>,
  );
}

describe('the window before the data is open', () => {
  it('shows the app at once when the data is open', async () => {
    installOrderDesk({ 'startup.state': () => ({ phase: 'ready' }) });
    renderGate();
    expect(await screen.findByText('The app')).toBeTruthy();
  });

  it('shows the encryption’s progress as it goes, then the app', async () => {
    const desk = installOrderDesk({ 'startup.state': () => ({ phase: 'starting' }) });
    renderGate();
    expect(await screen.findByText('Opening Order Desk’s data…')).toBeTruthy();
    const encrypting = (done: number): StartupView => ({
      phase: 'encrypting',
      file: FILES[1]!,
      fileNumber: 2,
      files: 2,
      done,
      total: 400,
    });
    await desk.emit('startup', encrypting(100));
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(
      'Encrypting this desk’s data',
    );
    const bar = screen.getByRole('progressbar', { name: 'Encrypting' });
    expect(bar.getAttribute('aria-valuenow')).toBe('25');
    expect(bar.getAttribute('aria-valuetext')).toBe('25%, file 2 of 2');
    await desk.emit('startup', encrypting(300));
    expect(bar.getAttribute('aria-valuenow')).toBe('75');
    await desk.emit('startup', { phase: 'ready' });
    expect(screen.getByText('The app')).toBeTruthy();
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('a newer event is not undone by an older answer to startup.state', async () => {
    let answer!: (view: StartupView) => void;
    const desk = installOrderDesk({
      'startup.state': () => new Promise<StartupView>((resolve) => (answer = resolve)),
    });
    renderGate();
    await desk.emit('startup', { phase: 'ready' });
    answer({ phase: 'starting' });
    expect(await screen.findByText('The app')).toBeTruthy();
  });

  it('a missing key: says so, names the files, tries again, and starts fresh only once confirmed', async () => {
    const user = userEvent.setup();
    let retried = 0;
    const desk = installOrderDesk({
      'startup.state': () => LOCKED,
      'startup.retry': () => {
        retried++;
        return LOCKED;
      },
      'startup.startFresh': () => ({ phase: 'starting' }),
    });
    renderGate();
    expect(
      await screen.findByRole('heading', { level: 1, name: 'This desk’s data cannot be opened' }),
    ).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe(LOCKED.message);
    const files = screen.getByRole('region', { name: 'The 2 files' });
    expect(
      within(files)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(FILES);

    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(retried).toBe(1);

    await user.click(screen.getByRole('button', { name: 'Start fresh…' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Start fresh?' });
    expect(dialog.textContent).toMatch(/nothing is deleted/);
    await user.click(within(dialog).getByRole('button', { name: 'Keep waiting' }));
    expect(desk.argsOf('startup.startFresh')).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Start fresh…' }));
    await user.click(
      within(screen.getByRole('alertdialog', { name: 'Start fresh?' })).getByRole('button', {
        name: 'Start fresh',
      }),
    );
    expect(desk.argsOf('startup.startFresh')).toEqual([{ confirm: true }]);
    expect(await screen.findByText('Opening Order Desk’s data…')).toBeTruthy();
  });

  it('an unreachable keychain offers to try again, not to start fresh', async () => {
    installOrderDesk({
      'startup.state': () => ({
        ...LOCKED,
        reason: 'keychain',
        message: 'The system keychain cannot be reached.',
        files: [],
        canStartFresh: false,
      }),
    });
    renderGate();
    expect(
      await screen.findByRole('heading', { level: 1, name: 'The keychain cannot be reached' }),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Start fresh…' })).toBeNull();
  });
});
