import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PrintActions } from '@renderer/screens/schedule/PrintActions';
import { useAppStore } from '@renderer/stores/app-store';
import { useToastStore } from '@renderer/stores/toast-store';
import { installOrderDesk, refuse } from '@test/support/component/fake-order-desk';

const PROTOCOL = '7a1f4c52-3a3e-4d3e-9b7c-2f1d4c5b6a70';
const FILE = 'dosing-schedule-ada-lovelace-2026-12-01.pdf';

afterEach(() => act(() => useAppStore.setState({ transport: null })));

const toastTitles = () => useToastStore.getState().toasts.map((t) => t.title);

describe('PrintActions', () => {
  it('Ctrl+P prints while the screen is open, and the print is recorded', async () => {
    const desk = installOrderDesk({ 'schedule.printed': () => null });
    const print = vi.spyOn(window, 'print').mockImplementation(() => undefined);
    render(<PrintActions fileName={FILE} subjects={{ protocols: [PROTOCOL] }} />);
    expect(screen.getByRole('button', { name: 'Print or save as PDF…' })).toBeTruthy();
    await userEvent.keyboard('{Control>}p{/Control}');
    expect(print).toHaveBeenCalledOnce();
    await waitFor(() =>
      expect(desk.argsOf('schedule.printed')).toEqual([{ subjects: { protocols: [PROTOCOL] } }]),
    );
  });

  it('in the desktop app, a PDF main could not save is said', async () => {
    act(() => useAppStore.setState({ transport: 'electron' }));
    const desk = installOrderDesk({
      'schedule.savePdf': () => refuse('internal', 'The disk is full.'),
    });
    render(<PrintActions fileName={FILE} subjects={{ orders: ['ord_1001'] }} />);
    await userEvent.click(screen.getByRole('button', { name: 'Save as PDF…' }));
    await waitFor(() =>
      expect(
        toastTitles().some((t) => t.startsWith('The schedule could not be saved as a PDF.')),
      ).toBe(true),
    );
    expect(desk.argsOf('schedule.savePdf')).toEqual([
      { fileName: FILE, subjects: { orders: ['ord_1001'] } },
    ]);
    expect(
      (screen.getByRole('button', { name: 'Save as PDF…' }) as HTMLButtonElement).disabled,
    ).toBe(false);
  });
});
