import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { beforeEach, describe, expect, it } from 'vitest';
import type { PaletteResults } from '@shared/palette-views';
import { CommandPalette } from '@renderer/components/CommandPalette';
import { usePaletteStore, useScreenCommands } from '@renderer/stores/palette-store';
import { installOrderDesk } from '@test/support/component/fake-order-desk';

const FOUND: PaletteResults = {
  patients: [{ sourceId: 'PAT-1001', name: 'Maria Gonzalez' }],
  protocols: [
    {
      localId: 'b7e1c9a0-1d2e-4f3a-8b4c-5d6e7f8a9b0c',
      customerName: 'Maria Gonzalez',
      sourceId: 'PAT-1001',
    },
  ],
  orders: [
    {
      id: 'ord_7Hq2',
      customerName: 'Maria Gonzalez',
      sourceId: 'PAT-1001',
      status: 'SHIPPED',
      createdAt: '2026-11-20T10:00:00.000Z',
    },
  ],
  recentOnly: false,
};

const NOTHING: PaletteResults = { patients: [], protocols: [], orders: [], recentOnly: false };

beforeEach(() =>
  usePaletteStore.setState({
    open: false,
    screenCommands: {},
    recents: { connectionId: null, items: [] },
  }),
);

function renderPalette() {
  const location = memoryLocation({ path: '/orders', record: true });
  render(
    <Router hook={location.hook}>
      <CommandPalette />
    </Router>,
  );
  return location;
}

const openPalette = () =>
  act(() => {
    fireEvent.keyDown(window, { key: 'k', ctrlKey: true });
  });

describe('CommandPalette: any patient, protocol, order or screen, and the commands at hand', () => {
  it('Ctrl+K opens it on the search box; typing asks main and lists what it found', async () => {
    const desk = installOrderDesk({ 'palette.search': () => FOUND });
    const user = userEvent.setup();
    renderPalette();
    expect(screen.queryByRole('dialog')).toBeNull();
    openPalette();
    const box = await screen.findByRole('combobox', { name: /Search patients/ });
    expect(document.activeElement).toBe(box);
    await user.type(box, 'maria');
    const dialog = screen.getByRole('dialog', { name: 'Go to or run' });
    expect(
      await within(dialog).findByRole('option', { name: /Maria Gonzalez.*Patient · PAT-1001/ }),
    ).toBeTruthy();
    expect(within(dialog).getByRole('option', { name: /Protocol · PAT-1001/ })).toBeTruthy();
    expect(
      within(dialog).getByRole('option', { name: /ord_7Hq2 · Maria Gonzalez.*Order · Shipped/ }),
    ).toBeTruthy();
    expect(desk.argsOf('palette.search').at(-1)).toEqual({ text: 'maria' });
  });

  it('Enter opens the highlighted patient, closes the palette, and keeps it on top as recent', async () => {
    installOrderDesk({ 'palette.search': () => FOUND });
    const user = userEvent.setup();
    const location = renderPalette();
    openPalette();
    const box = await screen.findByRole('combobox', { name: /Search patients/ });
    await user.type(box, 'maria');
    await screen.findByRole('option', { name: /Patient · PAT-1001/ });
    await user.keyboard('{Enter}');
    expect(location.history.at(-1)).toBe('/patients/PAT-1001');
    expect(screen.queryByRole('combobox')).toBeNull();

    openPalette();
    const recent = await screen.findByRole('group', { name: 'Recent' });
    expect(
      within(recent).getByRole('option', { name: /Maria Gonzalez.*Patient · PAT-1001/ }),
    ).toBeTruthy();
  });

  it('runs a command by keyboard: "sync" then Enter calls Sync now', async () => {
    const desk = installOrderDesk({
      'palette.search': () => NOTHING,
      'sync.now': () => null,
    });
    const user = userEvent.setup();
    renderPalette();
    openPalette();
    await user.type(await screen.findByRole('combobox'), 'sync');
    expect(await screen.findByRole('option', { name: /Sync now.*Command/ })).toBeTruthy();
    await user.keyboard('{Enter}');
    await act(async () => undefined);
    expect(desk.argsOf('sync.now')).toHaveLength(1);
  });

  it('fuzzy-matches screens and says so when nothing matches', async () => {
    installOrderDesk({ 'palette.search': () => NOTHING });
    const user = userEvent.setup();
    const location = renderPalette();
    openPalette();
    const box = await screen.findByRole('combobox');
    await user.type(box, 'rfl');
    await screen.findByRole('option', { name: /Refills due.*Screen/ });
    await user.keyboard('{Enter}');
    expect(location.history.at(-1)).toBe('/refills');

    openPalette();
    await user.type(await screen.findByRole('combobox'), 'zzqx');
    expect(await screen.findByText('Nothing here matches “zzqx”.')).toBeTruthy();
  });

  it('says that a text of two letters looked through recent ones only, when it found nothing', async () => {
    installOrderDesk({
      'palette.search': ({ text }) => ({ ...NOTHING, recentOnly: text.length < 3 }),
    });
    const user = userEvent.setup();
    renderPalette();
    openPalette();
    const box = await screen.findByRole('combobox');
    await user.type(box, 'qj');
    expect(
      await screen.findByText('Nothing recent matches “qj”: a third letter searches everything.'),
    ).toBeTruthy();
    await user.type(box, 'x');
    expect(await screen.findByText('Nothing here matches “qjx”.')).toBeTruthy();
  });

  it('scrolls only for a key that moves the highlight, and new results back to the top', async () => {
    installOrderDesk({ 'palette.search': () => FOUND });
    // jsdom has no scrollIntoView (the component calls it when there is one).
    const scrolledTo: string[] = [];
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolledTo.push(this.textContent ?? '');
    };
    try {
      const user = userEvent.setup();
      renderPalette();
      openPalette();
      const box = await screen.findByRole('combobox');
      await user.type(box, 'mar');
      await screen.findByRole('option', { name: /Patient · PAT-1001/ });
      // Typing and its answers highlight the best option without scrolling (no forced layout).
      expect(scrolledTo).toEqual([]);
      await user.keyboard('{ArrowDown}');
      expect(scrolledTo).toEqual([expect.stringMatching(/Protocol · PAT-1001/)]);
      const list = screen.getByRole('listbox', { name: 'Results' });
      list.scrollTop = 40;
      fireEvent.scroll(list);
      await user.type(box, 'i');
      await screen.findByRole('option', { name: /Patient · PAT-1001/, selected: true });
      expect(list.scrollTop).toBe(0);
      expect(scrolledTo).toHaveLength(1);
    } finally {
      delete (Element.prototype as Partial<Element>).scrollIntoView;
    }
  });

  it("offers the shown screen's own commands, and no longer once it is gone", async () => {
    installOrderDesk({ 'palette.search': () => NOTHING });
    const ran: string[] = [];
    function Screen() {
      useScreenCommands('test-screen', [
        { id: 'print', label: 'Print the dosing schedule', run: () => ran.push('print') },
      ]);
      return null;
    }
    const user = userEvent.setup();
    const location = memoryLocation({ path: '/protocols/x' });
    const view = render(
      <Router hook={location.hook}>
        <Screen />
        <CommandPalette />
      </Router>,
    );
    openPalette();
    await user.type(await screen.findByRole('combobox'), 'print');
    await user.keyboard('{Enter}');
    expect(ran).toEqual(['print']);

    view.rerender(
      <Router hook={location.hook}>
        <CommandPalette />
      </Router>,
    );
    openPalette();
    await user.type(await screen.findByRole('combobox'), 'print');
    expect(screen.queryByRole('option', { name: /Print the dosing schedule/ })).toBeNull();
  });
});
