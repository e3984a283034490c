import { memo } from 'react';
import type { DueWindow } from '@shared/protocol-views';
import { useProtocolsStore } from '@renderer/stores/protocols-store';
import { FilterSelect } from './FilterSelect';

const ANY = '';

/** The windows offered, as Refills due counts them (by the server's time). */
const WINDOWS: { value: DueWindow; label: string }[] = [
  { value: 'ran-out', label: 'Ran out' },
  { value: 'within-7', label: 'Due within 7 days' },
  { value: 'within-14', label: 'Due within 14 days' },
  { value: 'within-30', label: 'Due within 30 days' },
];

/**
 * "Who needs a refill soon?": shows only the protocols whose patient's last order runs out in
 * the window chosen (a window includes those that already ran out, as Refills due does).
 */
export const DueFilter = memo(function DueFilter() {
  const due = useProtocolsStore((s) => s.due);
  const setDue = useProtocolsStore((s) => s.setDue);
  return (
    <FilterSelect
      id="protocol-due"
      label="Refill"
      value={due ?? ANY}
      onChange={(value) => setDue(value === ANY ? null : (value as DueWindow))}
    >
      <option value={ANY}>Any time</option>
      {WINDOWS.map((w) => (
        <option key={w.value} value={w.value}>
          {w.label}
        </option>
      ))}
    </FilterSelect>
  );
});
