import { AlertTriangle } from 'lucide-react';
import { useCallback, useState } from 'react';
import { Link } from 'wouter';
import { SearchField } from '@renderer/components/SearchField';
import { plural } from '@renderer/lib/format';
import { useDebounced } from '@renderer/lib/use-debounced';
import '@renderer/styles/patients.css';
import { PatientList } from './PatientList';
import { SEARCH_MAX, usePatientList, useSharedIds } from './use-patients';

/** The search last typed, kept while the window is open (back from a patient keeps it). */
const lastSearch = { text: '' };

/**
 * #/patients: every patient a protocol or an order names, by name, searched by name or Patient
 * ID; each opens the patient's screen.
 */
export default function PatientsScreen() {
  const [text, setText] = useState(lastSearch.text);
  const [search, setSearch] = useState(lastSearch.text.trim());
  const apply = useCallback((value: string) => {
    lastSearch.text = value;
    setSearch(value.trim());
  }, []);
  useDebounced(text, 250, apply);
  const list = usePatientList(search);
  const shared = useSharedIds().data?.total ?? 0;
  const { state } = list;
  const clear = () => {
    setText('');
    apply('');
  };
  return (
    <div className="screen screen-wide patients-screen">
      <div className="screen-head">
        <h1>Patients</h1>
      </div>
      {shared > 0 && (
        <p className="notice notice-warn shared-ids-banner" role="status">
          <AlertTriangle aria-hidden="true" size={16} />
          <span>
            {shared === 1
              ? '1 Patient ID is used for more than one name.'
              : `${shared} Patient IDs are used for more than one name.`}{' '}
            Each name is listed apart until you say who is who.
          </span>
          <Link href="/patient-ids" className="button">
            Review
          </Link>
        </p>
      )}
      <section className="card patients-card" aria-label="Patient list">
        <div className="patients-toolbar">
          <SearchField
            id="patient-search"
            label="Search patients"
            placeholder="Search by name or Patient ID"
            value={text}
            onChange={setText}
            maxLength={SEARCH_MAX}
          />
          <p className="summary muted" role="status">
            {state.status === 'ready' && !state.stale
              ? search
                ? `${plural(state.total, 'patient')} match`
                : plural(state.total, 'patient')
              : ''}
          </p>
        </div>
        <PatientList list={list} searched={search !== ''} onClear={clear} />
      </section>
    </div>
  );
}
