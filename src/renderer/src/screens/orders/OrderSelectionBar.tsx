import { Ban, Download, Loader2, Printer, X } from 'lucide-react';
import { useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { formatCount } from '@renderer/lib/format';
import { focusScreenHeading } from '@renderer/lib/heading-focus';
import { datedFileName } from '@renderer/lib/save-file';
import { handOverCsvExport } from '@renderer/stores/csv-export';
import { useOrdersStore } from '@renderer/stores/orders-store';
import { BulkCancelDialog } from './BulkCancelDialog';
import { exportSelectedOrders } from './order-commands';
import { selectedSchedulesHref } from '@renderer/lib/order-format';

/**
 * The queue's selection (checkboxes, Space on a row) and what can be done with it: cancel the New
 * ones, export them as CSV, print their dosing schedules. A new search or filter clears it, and so
 * does a finished cancel or export.
 */
export function OrderSelectionBar() {
  const selected = useOrdersStore((s) => s.selected);
  const clear = useOrdersStore((s) => s.clearSelection);
  const [, navigate] = useLocation();
  const [cancelling, setCancelling] = useState(false);
  const [exporting, setExporting] = useState(false);
  const bar = useRef<HTMLDivElement>(null);
  const n = selected.size;
  /** The action is done: the bar goes with the selection, the focus to the screen's title. */
  const finish = () => {
    focusScreenHeading(bar.current);
    clear();
  };

  const exportSelection = async () => {
    setExporting(true);
    try {
      const result = await exportSelectedOrders(selected);
      handOverCsvExport(result, {
        fileName: datedFileName('order-desk-selected-orders'),
        noun: 'order',
        failure: 'The selected orders could not be exported.',
      });
      // Done with: the next action starts from a new choice. A failed export keeps it to retry.
      if (result.ok) finish();
    } finally {
      setExporting(false);
    }
  };

  if (n === 0) return null;
  return (
    <div className="order-selection" role="group" aria-label="Selected orders" ref={bar}>
      <p className="order-selection-count" role="status">
        <strong>{formatCount(n)} selected</strong>
      </p>
      <div className="order-selection-actions">
        <button type="button" className="button button-small" onClick={() => setCancelling(true)}>
          <Ban aria-hidden="true" size={14} />
          Cancel New…
        </button>
        <button
          type="button"
          className="button button-small"
          disabled={exporting}
          aria-busy={exporting}
          onClick={() => void exportSelection()}
        >
          {exporting ? (
            <Loader2 aria-hidden="true" size={14} className="spin" />
          ) : (
            <Download aria-hidden="true" size={14} />
          )}
          Export selected
        </button>
        <button
          type="button"
          className="button button-small"
          onClick={() => navigate(selectedSchedulesHref)}
        >
          <Printer aria-hidden="true" size={14} />
          Print schedules
        </button>
        <button type="button" className="button button-small" onClick={clear}>
          <X aria-hidden="true" size={14} />
          Clear
        </button>
      </div>
      <BulkCancelDialog
        open={cancelling}
        onClose={(done) => {
          setCancelling(false);
          if (done) finish();
        }}
      />
    </div>
  );
}
