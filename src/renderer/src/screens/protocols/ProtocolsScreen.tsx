import { memo } from 'react';
import { Download, FilePlus2, FileSpreadsheet, FileUp, ShoppingCart } from 'lucide-react';
import { Link } from 'wouter';
import type { ProtocolRowView } from '@shared/protocol-views';
import { plural } from '@renderer/lib/format';
import type { PagedState } from '@renderer/lib/paged-query';
import { isFiltered, useProtocolsStore } from '@renderer/stores/protocols-store';
import '@renderer/styles/protocols.css';
import { ProtocolFilters } from './ProtocolFilters';
import { ProtocolList } from './ProtocolList';
import { SelectionBar } from './SelectionBar';
import { downloadTemplate, exportProtocolsCsv } from './csv-actions';
import { useProtocolList } from './use-protocol-list';

/** How many protocols match, said when it changes (once counted: the rows come first). */
function MatchCount({ list }: { list: PagedState<ProtocolRowView> }) {
  const filtered = useProtocolsStore(isFiltered);
  const { total } = list;
  const ready = list.status === 'ready' && !list.stale && list.counted;
  const text = plural(total, 'protocol');
  return (
    <p className="summary muted" role="status" data-testid="protocol-count">
      {ready && (filtered || total > 0) ? (filtered ? `${text} match` : text) : ''}
    </p>
  );
}

/**
 * The screen's commands. Memoised: the screen renders again with every keystroke's rows, these
 * never change.
 */
const ScreenActions = memo(function ScreenActions() {
  return (
    <div className="screen-actions">
      <Link href="/protocols/import" className="button">
        <FileUp aria-hidden="true" size={16} />
        Import CSV…
      </Link>
      <button type="button" className="button" onClick={() => void exportProtocolsCsv()}>
        <Download aria-hidden="true" size={16} />
        Export CSV
      </button>
      <button type="button" className="button" onClick={() => void downloadTemplate()}>
        <FileSpreadsheet aria-hidden="true" size={16} />
        CSV template
      </button>
      <Link href="/new-order" className="button">
        <ShoppingCart aria-hidden="true" size={16} />
        New order
      </Link>
      <Link href="/protocols/new" className="button button-primary">
        <FilePlus2 aria-hidden="true" size={16} />
        New protocol
      </Link>
    </div>
  );
});

/**
 * The local protocols (#/protocols): search, filter and sort them, open one in the editor, and
 * select some for a batch. Works offline: everything here reads the local store.
 */
export default function ProtocolsScreen() {
  const list = useProtocolList();
  return (
    <div className="screen screen-wide protocols-screen">
      <div className="screen-head">
        <h1>Protocols</h1>
        <ScreenActions />
      </div>
      <section className="card protocols-card" aria-labelledby="protocols-heading">
        <h2 id="protocols-heading" className="visually-hidden">
          Protocols
        </h2>
        <ProtocolFilters />
        <div className="protocols-toolbar">
          <MatchCount list={list.state} />
          <SelectionBar list={list.state} />
        </div>
        <ProtocolList list={list} />
      </section>
    </div>
  );
}
