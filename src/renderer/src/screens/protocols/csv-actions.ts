import { call } from '@renderer/lib/ipc';
import { datedFileName } from '@renderer/lib/save-file';
import { handOverCsvExport } from '@renderer/stores/csv-export';
import { matchOf, orderOf, useProtocolsStore } from '@renderer/stores/protocols-store';

export const TEMPLATE_FILE_NAME = 'order-desk-protocols-template.csv';

/** The protocols the list shows (its search, filters and sort) as a CSV file for the user. */
export async function exportProtocolsCsv(): Promise<void> {
  const s = useProtocolsStore.getState();
  const result = await call('protocols.exportCsv', { ...matchOf(s), ...orderOf(s) });
  handOverCsvExport(result, {
    fileName: datedFileName('order-desk-protocols'),
    noun: 'protocol',
    failure: 'The protocols could not be exported.',
    empty: {
      title: 'No protocols to export',
      detail: 'No protocol matches the search and filters.',
    },
  });
}

/** The import's template: the columns and example rows made of catalog products. */
export async function downloadTemplate(): Promise<void> {
  const result = await call('protocols.csvTemplate', {});
  // Saved and said like every other download, with its example rows counted.
  handOverCsvExport(result, {
    fileName: TEMPLATE_FILE_NAME,
    noun: 'example protocol',
    failure: 'The template could not be made.',
    saved: (rows) => `Saved the CSV template, with ${rows}, as ${TEMPLATE_FILE_NAME}.`,
  });
}
