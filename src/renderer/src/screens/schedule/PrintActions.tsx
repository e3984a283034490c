import { FileDown, Loader2, Printer } from 'lucide-react';
import { useEffect } from 'react';
import type { ScheduleSubjects } from '@shared/activity-views';
import { useAppStore } from '@renderer/stores/app-store';
import { usePrintActions } from './use-print';

/**
 * Print, and save as PDF: in the desktop app a Save as PDF button (Electron's printToPDF, then a
 * save dialog); in the browser host the browser's print dialog, whose "Save as PDF" destination
 * does the same, as the note beside the button says. Ctrl+P (Cmd+P) prints while the screen is
 * open, in both.
 */
export function PrintActions({
  fileName,
  subjects,
}: {
  fileName: string;
  /** What the schedule is of, for the activity record (never the file name: it has the name). */
  subjects: ScheduleSubjects;
}) {
  const transport = useAppStore((s) => s.transport);
  const { print: printPage, savePdf, saving } = usePrintActions(fileName, subjects);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
      if (event.key.toLowerCase() !== 'p') return;
      event.preventDefault();
      printPage();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [printPage]);

  if (transport === 'electron') {
    return (
      <div className="schedule-print">
        <button type="button" className="button button-primary" onClick={printPage}>
          <Printer aria-hidden="true" size={16} /> Print…
        </button>
        <button
          type="button"
          className="button"
          onClick={() => void savePdf()}
          disabled={saving}
          aria-busy={saving}
        >
          {saving ? (
            <Loader2 aria-hidden="true" size={16} className="spin" />
          ) : (
            <FileDown aria-hidden="true" size={16} />
          )}
          {saving ? 'Saving…' : 'Save as PDF…'}
        </button>
      </div>
    );
  }
  return (
    <div className="schedule-print">
      <button
        type="button"
        className="button button-primary"
        onClick={printPage}
        aria-describedby="schedule-print-note"
      >
        <Printer aria-hidden="true" size={16} /> Print or save as PDF…
      </button>
      <p id="schedule-print-note" className="muted schedule-print-note">
        In the browser, the print dialog saves the PDF: choose “Save as PDF” as the destination.
      </p>
    </div>
  );
}
