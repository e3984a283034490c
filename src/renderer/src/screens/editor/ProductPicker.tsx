import { Loader2, Plus } from 'lucide-react';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { ProductRead } from '@shared/api';
import { notOrderableReason } from '@shared/product-status';
import { StatusBadge } from '@renderer/components/StatusBadge';
import { formatMoney, priceUnit } from '@renderer/lib/format';
import { call, errorMessage } from '@renderer/lib/ipc';
import { useLiveQuery } from '@renderer/lib/use-query';
import { useDebounced } from '@renderer/lib/use-debounced';

const SEARCH_MAX = 200;
const RESULTS = 20;

interface Props {
  /** Products already on the protocol: shown, but not added twice. */
  chosen: ReadonlySet<number>;
  onPick(product: ProductRead): void;
  disabled?: boolean;
}

type Results =
  | { state: 'idle' }
  | { state: 'loading' }
  | { state: 'ready'; products: ProductRead[]; total: number }
  | { state: 'failed'; message: string };

/**
 * Search the catalog as you type and add a product: a combobox (arrows move, Enter adds, Escape
 * closes) over the local catalog mirror, so it works offline.
 */
export function ProductPicker({ chosen, onPick, disabled = false }: Props) {
  const [text, setText] = useState('');
  const [search, setSearch] = useState<string | null>(null);

  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const listId = useId();
  const input = useRef<HTMLInputElement>(null);
  const apply = useCallback((value: string) => setSearch(value.trim()), []);
  useDebounced(text, 150, apply);

  // A live query of the catalog mirror once the user has typed or opened the list.
  const query = { ...(search ? { search } : {}), limit: RESULTS, sort: 'orderable' as const };
  const read = useLiveQuery(
    () =>
      search === null
        ? Promise.resolve({ ok: true as const, value: null })
        : call('catalog.products', query),
    [query, search === null],
    ['catalog'],
  );
  const results: Results =
    search === null
      ? { state: 'idle' }
      : read.status === 'loading'
        ? { state: 'loading' }
        : read.status === 'failed'
          ? { state: 'failed', message: errorMessage(read.error) }
          : read.data
            ? { state: 'ready', products: read.data.products, total: read.data.total }
            : { state: 'loading' };
  // New results for a new search start at their first row.
  useEffect(() => setActive(0), [search]);

  const products = results.state === 'ready' ? results.products : [];
  const pick = (product: ProductRead | undefined) => {
    // Already on the protocol, or a product the server refuses (shown disabled, with why).
    if (!product || chosen.has(product.id) || notOrderableReason(product.status)) return;
    onPick(product);
    setText('');
    setOpen(false);
    input.current?.focus();
  };

  const onKeyDown = (event: React.KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setOpen(true);
      if (search === null) setSearch(text.trim());
      setActive((i) => Math.min(i + 1, Math.max(products.length - 1, 0)));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((i) => Math.max(i - 1, 0));
    } else if (event.key === 'Enter') {
      // Enter adds the highlighted product; it never submits the protocol from here.
      event.preventDefault();
      if (open) pick(products[active]);
    } else if (event.key === 'Escape' && open) {
      event.preventDefault();
      event.stopPropagation();
      setOpen(false);
    }
  };

  const optionId = (i: number) => `${listId}-option-${i}`;
  const showList = open && results.state !== 'idle';
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
          aria-activedescendant={showList && products[active] ? optionId(active) : undefined}
          placeholder="Search the catalog by name"
          maxLength={SEARCH_MAX}
          autoComplete="off"
          disabled={disabled}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
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
        <ul id={listId} role="listbox" aria-label="Products" className="product-options">
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
                aria-selected={i === active}
                aria-disabled={taken || refused !== null || undefined}
                className={`product-option ${i === active ? 'product-option-active' : ''} ${refused ? 'product-option-refused' : ''}`}
                onMouseDown={(e) => e.preventDefault()}
                onMouseEnter={() => setActive(i)}
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
