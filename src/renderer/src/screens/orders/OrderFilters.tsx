import { useCallback, useEffect, useState } from 'react';
import type { OrderStatusRead } from '@shared/api';
import type { OrderCountsView } from '@shared/work-views';
import type { PagedState } from '@renderer/lib/paged-query';
import { Field } from '@renderer/components/Field';
import { formatCount, plural } from '@renderer/lib/format';
import { useDebounced } from '@renderer/lib/use-debounced';
import { useOrdersStore } from '@renderer/stores/orders-store';
import {
  DATE_PRESETS,
  DATE_PRESET_LABELS,
  SEARCH_MAX,
  isFiltered,
  orderStatusLabel,
  queueStatuses,
  rangeProblem,
  type DatePreset,
} from '@renderer/lib/order-filters';
import { SearchField } from '@renderer/components/SearchField';
import { ExportOrdersButton } from './ExportOrdersButton';
import type { QueueRow } from './use-order-queue';

function SearchBox() {
  const text = useOrdersStore((s) => s.searchText);
  const setText = useOrdersStore((s) => s.setSearchText);
  const setSearch = useOrdersStore((s) => s.setSearch);
  const apply = useCallback((value: string) => setSearch(value), [setSearch]);
  useDebounced(text, 250, apply);
  return (
    <SearchField
      id="order-search"
      label="Search orders"
      placeholder="Patient name, Patient ID or order ID"
      value={text}
      onChange={setText}
      maxLength={SEARCH_MAX}
    />
  );
}

function StatusChips({ counts }: { counts: OrderCountsView | null }) {
  const statuses = useOrdersStore((s) => s.statuses);
  const setStatuses = useOrdersStore((s) => s.setStatuses);
  const toggle = (status: OrderStatusRead) =>
    setStatuses(
      statuses.includes(status) ? statuses.filter((s) => s !== status) : [...statuses, status],
    );
  return (
    <fieldset className="chips">
      <legend className="visually-hidden">Filter by status</legend>
      {queueStatuses(counts?.counts ?? null, statuses).map((status) => {
        const n = counts?.counts[status] ?? (counts ? 0 : undefined);
        return (
          <label key={status} className="chip">
            <input
              type="checkbox"
              checked={statuses.includes(status)}
              onChange={() => toggle(status)}
              aria-describedby={n !== undefined ? `order-count-${status}` : undefined}
            />
            <span>{orderStatusLabel(status)}</span>
            {n !== undefined && (
              <span id={`order-count-${status}`} className="chip-count">
                <span className="visually-hidden">: </span>
                {formatCount(n)}
                <span className="visually-hidden"> {n === 1 ? 'order' : 'orders'}</span>
              </span>
            )}
          </label>
        );
      })}
    </fieldset>
  );
}

function CustomRange() {
  const from = useOrdersStore((s) => s.customFrom);
  const to = useOrdersStore((s) => s.customTo);
  const setRange = useOrdersStore((s) => s.setCustomRange);
  // The inputs keep what is typed; the store takes a range only once it makes sense.
  const [draft, setDraft] = useState({ from, to });
  useEffect(() => setDraft({ from, to }), [from, to]);
  const problem = rangeProblem(draft.from, draft.to);
  const change = (next: { from: string; to: string }) => {
    setDraft(next);
    if (!rangeProblem(next.from, next.to)) setRange(next.from, next.to);
  };
  return (
    <div className="order-range">
      <Field
        label="From"
        type="date"
        value={draft.from}
        max={draft.to || undefined}
        onChange={(e) => change({ ...draft, from: e.target.value })}
        error={problem?.field === 'from' ? problem.message : undefined}
      />
      <Field
        label="To"
        type="date"
        value={draft.to}
        min={draft.from || undefined}
        onChange={(e) => change({ ...draft, to: e.target.value })}
        error={problem?.field === 'to' ? problem.message : undefined}
      />
    </div>
  );
}

function DateFilter() {
  const preset = useOrdersStore((s) => s.preset);
  const setPreset = useOrdersStore((s) => s.setPreset);
  return (
    <div className="order-dates">
      <div className="field order-date-preset">
        <label htmlFor="order-created" className="field-label">
          Created
        </label>
        <select
          id="order-created"
          className="input"
          value={preset}
          onChange={(e) => setPreset(e.target.value as DatePreset)}
        >
          {DATE_PRESETS.map((p) => (
            <option key={p} value={p}>
              {DATE_PRESET_LABELS[p]}
            </option>
          ))}
        </select>
      </div>
      {preset === 'custom' && <CustomRange />}
    </div>
  );
}

/** "1,234 orders", "12 orders match", a way back to every order, and the queue as CSV. */
export function QueueSummary({ list }: { list: PagedState<QueueRow> }) {
  const { total } = list;
  const ready = list.status === 'ready' && !list.stale;
  const filtered = useOrdersStore(isFiltered);
  const clear = useOrdersStore((s) => s.clearFilters);
  return (
    <div className="order-summary">
      <p className="summary muted" role="status">
        {ready ? `${plural(total, 'order')}${filtered ? ' match' : ''}` : ''}
      </p>
      <div className="order-summary-actions">
        {filtered && (
          <button type="button" className="button button-small" onClick={clear}>
            Clear filters
          </button>
        )}
        <ExportOrdersButton empty={ready && total === 0} />
      </div>
    </div>
  );
}

/** Search, status (with counts) and created date: what the queue shows. */
export function OrderFilters({ counts }: { counts: OrderCountsView | null }) {
  return (
    <div className="filters order-filters">
      <div className="order-filter-line">
        <SearchBox />
        <DateFilter />
      </div>
      <StatusChips counts={counts} />
    </div>
  );
}
