import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { useAppStore } from '@renderer/stores/app-store';
import { recentsOf, usePaletteStore } from '@renderer/stores/palette-store';
import { Dialog } from './Dialog';
import { paletteSections, type PaletteItem } from './palette-items';
import { useAppCommands } from './use-app-commands';
import { usePaletteSearch } from './use-palette-search';

/** Ctrl/Cmd+K opens and closes the palette, wherever the focus is. */
function usePaletteShortcut(): void {
  const setOpen = usePaletteStore((s) => s.setOpen);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
      if (event.key.toLowerCase() !== 'k') return;
      event.preventDefault();
      setOpen(!usePaletteStore.getState().open);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [setOpen]);
}

/** The command palette: any patient, protocol, order or screen, and every command at hand. */
export function CommandPalette() {
  usePaletteShortcut();
  const open = usePaletteStore((s) => s.open);
  const setOpen = usePaletteStore((s) => s.setOpen);
  return (
    <Dialog open={open} title="Go to or run" onClose={() => setOpen(false)}>
      <PaletteBody onDone={() => setOpen(false)} />
    </Dialog>
  );
}

function PaletteBody({ onDone }: { onDone(): void }) {
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  const [, navigate] = useLocation();
  const connectionId = useAppStore((s) => s.connection?.id ?? null);
  const appCommands = useAppCommands(navigate);
  const screenCommands = usePaletteStore((s) => s.screenCommands);
  const recents = usePaletteStore((s) => s.recents);
  const remember = usePaletteStore((s) => s.remember);
  const { results, searching, error } = usePaletteSearch(text);
  const sections = useMemo(
    () =>
      paletteSections(
        text,
        results,
        [...Object.values(screenCommands).flat(), ...appCommands],
        recentsOf(recents, connectionId),
      ),
    [text, results, screenCommands, appCommands, recents, connectionId],
  );
  const items = sections.flatMap((s) => s.items);
  const listId = useId();
  const optionId = (index: number) => `${listId}-option-${index}`;

  const list = useRef<HTMLDivElement>(null);
  /** The list is scrolled away from its top (its scroll events say so: no layout is read). */
  const scrolled = useRef(false);
  /** The highlight was moved by a key: its option is scrolled into view. */
  const movedByKey = useRef(false);

  // New results: the best one is highlighted, at the top of the list. Nothing here reads or
  // forces the layout, which a keystroke would otherwise pay before its options are drawn.
  useEffect(() => {
    setActive(0);
    movedByKey.current = false;
    if (scrolled.current && list.current) list.current.scrollTop = 0;
  }, [sections]);
  useEffect(() => {
    if (!movedByKey.current) return;
    movedByKey.current = false;
    document.getElementById(`${listId}-option-${active}`)?.scrollIntoView?.({ block: 'nearest' });
  }, [listId, active]);

  const choose = (item: PaletteItem | undefined) => {
    if (!item) return;
    onDone();
    if (item.kind === 'run') item.command.run();
    else {
      remember(connectionId, item.place);
      navigate(item.place.href);
    }
  };
  const onKeyDown = (event: React.KeyboardEvent<HTMLInputElement>) => {
    const n = items.length;
    if ((event.key === 'ArrowDown' || event.key === 'ArrowUp') && n > 0) {
      movedByKey.current = true;
      const step = event.key === 'ArrowDown' ? 1 : n - 1;
      setActive((a) => (a + step) % n);
    } else if (event.key === 'Enter') choose(items[active]);
    else return;
    event.preventDefault();
  };

  let index = 0;
  return (
    <div className="palette">
      <input
        type="text"
        role="combobox"
        aria-expanded="true"
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={items.length > 0 ? optionId(active) : undefined}
        aria-label="Search patients, protocols, orders, screens and commands"
        placeholder="A patient, protocol, order id, screen or command"
        autoComplete="off"
        spellCheck={false}
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
        data-autofocus
        className="palette-input"
      />
      <div
        ref={list}
        id={listId}
        role="listbox"
        aria-label="Results"
        aria-busy={searching}
        className="palette-list"
        onScroll={(event) => {
          scrolled.current = event.currentTarget.scrollTop > 0;
        }}
      >
        {sections.map((section) => (
          <div key={section.heading} role="group" aria-labelledby={`${listId}-${section.heading}`}>
            <div
              id={`${listId}-${section.heading}`}
              className="palette-heading"
              role="presentation"
            >
              {section.heading}
            </div>
            {section.items.map((item) => {
              const at = index++;
              return (
                <div
                  key={item.key}
                  id={optionId(at)}
                  role="option"
                  aria-selected={at === active}
                  className="palette-item"
                  // Only a real move of the pointer highlights: a list scrolling under it does not.
                  onMouseMove={() => setActive(at)}
                  onClick={() => choose(item)}
                >
                  <span className="palette-label">
                    {item.kind === 'run' ? item.command.label : item.place.label}
                  </span>
                  <span className="palette-detail">
                    {item.kind === 'run' ? 'Command' : item.place.detail}
                  </span>
                </div>
              );
            })}
          </div>
        ))}
      </div>
      <p className="palette-note" role="status">
        {error
          ? `Patients, protocols and orders could not be searched: ${error}`
          : items.length === 0 && text.trim() !== ''
            ? searching
              ? 'Searching…'
              : results.recentOnly
                ? `Nothing recent matches “${text.trim()}”: a third letter searches everything.`
                : `Nothing here matches “${text.trim()}”.`
            : ''}
      </p>
      <p className="palette-hint" aria-hidden="true">
        ↑ ↓ to move · Enter to open · Esc to close
      </p>
    </div>
  );
}
