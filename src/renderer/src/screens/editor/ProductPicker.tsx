import { Loader2, Plus } from 'lucide-react';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { ProductRead } from '@shared/api';
import { notOrderableReason } from '@shared/api/product-status';
import { StatusBadge } from '@renderer/components/StatusBadge';
import { formatMoney, priceUnit } from '@renderer/lib/format';
import { errorMessage } from '@renderer/lib/ipc';
import { useDebounced } from '@renderer/lib/use-debounced';
import { useProductSearch } from './use-protocol-editor';

const SEARCH_MAX = 200;

interface Props {
  /** Products already on the protocol: shown, but not added twice. */
  chosen: ReadonlySet<number>;
  onPick(product: ProductRead): void;
  disabled?: boolean;
}

type Results =
  | { state: 'idle' }
  | { state: 'loading' }
  | { state: 'ready'; products: ProductRead[]; total: number; search: string }
  | { state: 'failed'; message: string };

/**
 * Search the catalog as you type and add a product: a combobox (arrows move, Enter adds, Escape
 * closes) over the local catalog mirror, so it works offline.
 *
 * Results carry the search they answer: the list shown may still be an older search's (the typed
 * text applies after a pause), and Enter or the arrows act only on the results for the text in
 * the box. Enter before they arrive searches at once and adds the first of them when they come.
 */
export function ProductPicker({ chosen, onPick, disabled = false }: Props) {
  const [text, setText] = useState('');
  const [search, setSearch] = useState<string | null>(null);

  const [open, setOpen] = useState(false);
  // The highlighted row of the results of one search: other results start at their first row.
  const [active, setActive] = useState<{ search: string | null; index: number }>({
    search: null,
    index: 0,
  });
  // Enter pressed for this text before its results came: the first of them is added then.
  const [enterFor, setEnterFor] = useState<string | null>(null);
  // Where the pointer was at its last move over the list (screen coordinates), so that a list
  // drawn anew under a resting pointer does not move the highlight: only a real move does.
  const pointer = useRef<string | null>(null);
  const listId = useId();
  const input = useRef<HTMLInputElement>(null);
  const apply = useCallback((value: string) => setSearch(value.trim()), []);
  useDebounced(text, 150, apply);

  const read = useProductSearch(search);
  const results: Results =
    search === null
      ? { state: 'idle' }
      : read.status === 'loading'
        ? { state: 'loading' }
        : read.status === 'failed'
          ? { state: 'failed', message: errorMessage(read.error) }
          : read.data
            ? { state: 'ready', ...read.data }
            : { state: 'loading' };

  const typed = text.trim();
  const shownFor = results.state === 'ready' ? results.search : null;
  const current = shownFor === typed;
  const activeIndex = active.search === shownFor ? active.index : 0;
  const products = results.state === 'ready' ? results.products : [];
  const pick = useCallback(
    (product: ProductRead | undefined) => {
      // Already on the protocol, or a product the server refuses (shown disabled, with why).
      if (!product || chosen.has(product.id) || notOrderableReason(product.status)) return;
      onPick(product);
      setText('');
      setOpen(false);
      input.current?.focus();
    },
    [chosen, onPick],
  );

  // The results Enter waited for have come: the first of them is added (none: nothing is).
  const waitedFor = enterFor !== null && current && enterFor === typed ? products[0] : undefined;
  const settled = enterFor !== null && current;
  useEffect(() => {
    if (!settled) return;
    setEnterFor(null);
    pick(waitedFor);
  }, [settled, waitedFor, pick]);

  /** The results for the text typed are not those shown yet: search it now. */
  const searchNow = () => {
    if (search !== typed) setSearch(typed);
  };
  const move = (by: number) =>
    setActive({
      search: shownFor,
      index: Math.min(Math.max(activeIndex + by, 0), Math.max(products.length - 1, 0)),
    });

  const onKeyDown = (event: React.KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(true);
      if (current) move(event.key === 'ArrowDown' ? 1 : -1);
      else searchNow();
    } else if (event.key === 'Enter') {
      // Enter adds the highlighted product; it never submits the protocol from here.
      event.preventDefault();
      if (!open) return;
      if (current) pick(products[activeIndex]);
      else {
        setEnterFor(typed);
        searchNow();
      }
    } else if (event.key === 'Escape' && open) {
      event.preventDefault();
      event.stopPropagation();
      setEnterFor(null);
      setOpen(false);
    }
  };

  const onPointerMove = (event: React.MouseEvent, index: number) => {
    const at = `${event.screenX},${event.screenY}`;
    const moved = pointer.current !== null && pointer.current !== at;
    pointer.current = at;
    if (moved && (active.search !== shownFor || active.index !== index))
      setActive({ search: shownFor, index });
  };

  const optionId = (i: number) => `${listId}-option-${i}`;
  const showList = open && results.state !== 'idle';
  // A list that closes forgets the pointer (it may move elsewhere before the list is back).
  useEffect(() => {
    if (!showList) pointer.current = null;
  }, [showList]);
  return (
    <div className="product-picker">
      <label className="field-label" htmlFor={`${listId}-input`}>
        Add a product
      </label>
      <div className="field-control">
        <input
          ref={input}
          id={`${listId}-input`}
          className="input"
          type="search"
          role="combobox"
          aria-expanded={showList}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={
            showList && products[activeIndex] ? optionId(activeIndex) : undefined
          }
          placeholder="Search the catalog by name"
          maxLength={SEARCH_MAX}
          autoComplete="off"
          disabled={disabled}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setEnterFor(null);
            setOpen(true);
          }}
          onFocus={() => {
            if (search === null) setSearch('');
          }}
          onBlur={(e) => {
            // A click in the list keeps it open long enough to pick.
            if (!e.relatedTarget?.closest('.product-picker')) setOpen(false);
          }}
          onKeyDown={onKeyDown}
        />
        {results.state === 'loading' && (
          <Loader2 aria-label="Searching" size={16} className="spin" role="img" />
        )}
      </div>
      {showList && (
        <ul
          id={listId}
          role="listbox"
          aria-label="Products"
          className="product-options"
          onMouseLeave={() => (pointer.current = null)}
        >
          {results.state === 'failed' && (
            <li className="product-option-note" role="presentation">
              The catalog could not be searched. {results.message}
            </li>
          )}
          {results.state === 'ready' && products.length === 0 && (
            <li className="product-option-note" role="presentation">
              No product matches “{search}”.
            </li>
          )}
          {products.map((p, i) => {
            const taken = chosen.has(p.id);
            const refused = notOrderableReason(p.status);
            return (
              <li
                key={p.id}
                id={optionId(i)}
                role="option"
                aria-selected={i === activeIndex}
                aria-disabled={taken || refused !== null || undefined}
                className={`product-option ${i === activeIndex ? 'product-option-active' : ''} ${refused ? 'product-option-refused' : ''}`}
                onMouseDown={(e) => e.preventDefault()}
                onMouseMove={(e) => onPointerMove(e, i)}
                onClick={() => pick(p)}
              >
                <span className="product-option-name">
                  {taken ? <span className="muted">{p.name} (added)</span> : p.name}
                </span>
                <span className="product-option-meta">
                  {refused ??
                    `${p.external ? 'External' : 'Pack'} · ${formatMoney(p.price)} per ${priceUnit(p)}`}
                </span>
                {p.status !== 'ACTIVE' && <StatusBadge status={p.status} />}
                {!taken && !refused && <Plus aria-hidden="true" size={14} />}
              </li>
            );
          })}
          {results.state === 'ready' && results.total > products.length && (
            <li className="product-option-note" role="presentation">
              {results.total - products.length} more: type more of the name to narrow the list.
            </li>
          )}
        </ul>
      )}
    </div>
  );
}
