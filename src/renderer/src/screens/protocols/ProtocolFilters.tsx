import type { ProtocolListState, ProtocolSort } from '@shared/protocol-views';
import { FILTER_STATES, SEARCH_MAX, useProtocolsStore } from '@renderer/stores/protocols-store';
import { SearchField } from '@renderer/components/SearchField';
import { ProductFilter } from './ProductFilter';

export const FILTER_LABELS: Record<ProtocolListState, string> = {
  synced: 'Synced',
  pending: 'Pending sync',
  'in-doubt': 'In doubt',
  conflict: 'Conflict',
};

const SORTS: { value: ProtocolSort; label: string }[] = [
  { value: 'changed', label: 'Last change' },
  { value: 'name', label: 'Name' },
];

/** Search as you type, the sync-state and product filters and the sort of the protocol list. */
export function ProtocolFilters() {
  const text = useProtocolsStore((s) => s.searchText);
  const setText = useProtocolsStore((s) => s.setSearchText);
  const states = useProtocolsStore((s) => s.syncStates);
  const setStates = useProtocolsStore((s) => s.setSyncStates);
  const sort = useProtocolsStore((s) => s.sort);
  const setSort = useProtocolsStore((s) => s.setSort);

  const toggle = (state: ProtocolListState) =>
    setStates(states.includes(state) ? states.filter((s) => s !== state) : [...states, state]);

  return (
    <div className="filters protocol-filters">
      <SearchField
        id="protocol-search"
        label="Search protocols"
        placeholder="Search by patient name, Patient ID or email"
        value={text}
        onChange={setText}
        maxLength={SEARCH_MAX}
      />
      <div className="protocol-filter-row">
        <fieldset className="chips">
          <legend className="visually-hidden">Show only</legend>
          {FILTER_STATES.map((state) => (
            <label key={state} className="chip">
              <input
                type="checkbox"
                checked={states.includes(state)}
                onChange={() => toggle(state)}
              />
              <span>{FILTER_LABELS[state]}</span>
            </label>
          ))}
        </fieldset>
        <ProductFilter />
        <fieldset className="chips protocol-sort">
          <legend className="protocol-sort-legend muted">Sort by</legend>
          {SORTS.map(({ value, label }) => (
            <label key={value} className="chip">
              <input
                type="radio"
                name="protocol-sort"
                value={value}
                checked={sort === value}
                onChange={() => setSort(value)}
              />
              <span>{label}</span>
            </label>
          ))}
        </fieldset>
      </div>
    </div>
  );
}
