import type { ProtocolListState } from '@shared/protocol-views';
import { FILTER_STATES, SEARCH_MAX, useProtocolsStore } from '@renderer/stores/protocols-store';
import { SearchField } from '@renderer/components/SearchField';
import { ColumnChooser } from './ColumnChooser';
import { DueFilter } from './DueFilter';
import { ProductFilter } from './ProductFilter';

export const FILTER_LABELS: Record<ProtocolListState, string> = {
  synced: 'Synced',
  pending: 'Pending sync',
  'in-doubt': 'In doubt',
  conflict: 'Conflict',
};

/**
 * Search as you type, and the sync-state, product and refill filters of the protocol list, and
 * the choice of its columns (the column headers sort it).
 */
export function ProtocolFilters() {
  const text = useProtocolsStore((s) => s.searchText);
  const setText = useProtocolsStore((s) => s.setSearchText);
  const states = useProtocolsStore((s) => s.syncStates);
  const setStates = useProtocolsStore((s) => s.setSyncStates);

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
        <div className="protocol-filter-selects">
          <ProductFilter />
          <DueFilter />
          <ColumnChooser />
        </div>
      </div>
    </div>
  );
}
