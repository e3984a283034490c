import { useCallback } from 'react';
import { ActivityAction } from '@shared/activity-views';
import { ACTION_WORDS } from '@shared/activity-words';
import { Field } from '@renderer/components/Field';
import { useDebounced } from '@renderer/lib/use-debounced';
import { rangeProblem } from '@renderer/lib/order-filters';
import { useActivityStore } from '@renderer/stores/activity-store';
import { useActivityPeople } from './use-activity';

function PatientFilter() {
  const text = useActivityStore((s) => s.patientText);
  const set = useActivityStore((s) => s.set);
  const apply = useCallback((value: string) => set({ patient: value }), [set]);
  useDebounced(text, 250, apply);
  return (
    <Field
      id="activity-patient"
      label="Patient ID"
      value={text}
      maxLength={100}
      autoComplete="off"
      spellCheck={false}
      onChange={(e) => set({ patientText: e.target.value })}
    />
  );
}

function PersonFilter() {
  const person = useActivityStore((s) => s.person);
  const set = useActivityStore((s) => s.set);
  const people = useActivityPeople().data;
  return (
    <div className="field">
      <label htmlFor="activity-person" className="field-label">
        Person
      </label>
      <select
        id="activity-person"
        className="input"
        value={person}
        onChange={(e) => set({ person: e.target.value })}
      >
        <option value="">Everyone</option>
        {people && people.staff.length > 0 && (
          <optgroup label="People at a desk">
            {people.staff.map((name) => (
              <option key={`staff:${name}`} value={name}>
                {name}
              </option>
            ))}
          </optgroup>
        )}
        {people && (
          <optgroup label="Computer accounts">
            {people.osUsers
              .filter((name) => !people.staff.includes(name))
              .map((name) => (
                <option key={`os:${name}`} value={name}>
                  {name}
                </option>
              ))}
          </optgroup>
        )}
        {/* A person chosen before the list was read stays chosen. */}
        {person && !people && <option value={person}>{person}</option>}
      </select>
    </div>
  );
}

function ActionFilter() {
  const action = useActivityStore((s) => s.action);
  const set = useActivityStore((s) => s.set);
  return (
    <div className="field">
      <label htmlFor="activity-action" className="field-label">
        Action
      </label>
      <select
        id="activity-action"
        className="input"
        value={action}
        onChange={(e) => {
          const parsed = ActivityAction.safeParse(e.target.value);
          set({ action: parsed.success ? parsed.data : '' });
        }}
      >
        <option value="">Any action</option>
        {ActivityAction.options.map((a) => (
          <option key={a} value={a}>
            {ACTION_WORDS[a]}
          </option>
        ))}
      </select>
    </div>
  );
}

function DateFilters() {
  const from = useActivityStore((s) => s.from);
  const to = useActivityStore((s) => s.to);
  const set = useActivityStore((s) => s.set);
  const problem = rangeProblem(from, to);
  return (
    <>
      <Field
        id="activity-from"
        label="From"
        type="date"
        value={from}
        max={to || undefined}
        onChange={(e) => set({ from: e.target.value })}
        error={problem?.field === 'from' ? problem.message : undefined}
      />
      <Field
        id="activity-to"
        label="To"
        type="date"
        value={to}
        min={from || undefined}
        onChange={(e) => set({ to: e.target.value })}
        error={problem?.field === 'to' ? problem.message : undefined}
      />
    </>
  );
}

/** The record's filters: a patient, a person, an action, a range of days. */
export function ActivityFilters() {
  return (
    <fieldset className="activity-filters">
      <legend className="visually-hidden">Filter the activity record</legend>
      <PatientFilter />
      <PersonFilter />
      <ActionFilter />
      <DateFilters />
    </fieldset>
  );
}
