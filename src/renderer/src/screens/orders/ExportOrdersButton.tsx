import { Download, Loader2 } from 'lucide-react';
import { useId, useState } from 'react';
import { datedFileName } from '@renderer/lib/save-file';
import { handOverCsvExport } from '@renderer/stores/csv-export';
import { exportQueue as exportOrders } from './order-commands';

/**
 * "Export CSV": every order the queue shows (its search, dates and status chips; every page, not
 * only those loaded), as a spreadsheet file. Main writes the CSV; the window hands it to the user.
 */
export function ExportOrdersButton({ empty }: { empty: boolean }) {
  const [busy, setBusy] = useState(false);
  const reasonId = useId();

  const exportQueue = async () => {
    setBusy(true);
    try {
      const result = await exportOrders();
      handOverCsvExport(result, {
        fileName: datedFileName('order-desk-orders'),
        noun: 'order',
        failure: 'The orders could not be exported.',
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="order-export">
      {empty && (
        <span id={reasonId} className="muted order-export-reason">
          Nothing to export
        </span>
      )}
      <button
        type="button"
        className="button button-small"
        disabled={empty || busy}
        aria-describedby={empty ? reasonId : undefined}
        aria-busy={busy}
        onClick={() => void exportQueue()}
      >
        {busy ? (
          <Loader2 aria-hidden="true" size={14} className="spin" />
        ) : (
          <Download aria-hidden="true" size={14} />
        )}
        Export CSV
      </button>
    </div>
  );
}
