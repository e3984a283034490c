import { call, describeError } from '../../lib/ipc';
import { datedFileName, saveTextFile } from '../../lib/save-file';
import { plural } from '../../lib/format';
import { useProtocolsStore } from '../../stores/protocols-store';
import { toast } from '../../stores/toast-store';

export const TEMPLATE_FILE_NAME = 'order-desk-protocols-template.csv';

/** The protocols the list shows (its search, filters and sort) as a CSV file for the user. */
export async function exportProtocolsCsv(): Promise<void> {
  const { search, syncStates, sort } = useProtocolsStore.getState();
  const result = await call('protocols.exportCsv', {
    search,
    sort,
    ...(syncStates.length > 0 ? { syncStates } : {}),
  });
  if (!result.ok) {
    const { title, detail } = describeError(result.error);
    toast.error(`The protocols could not be exported. ${title}`, detail);
    return;
  }
  if (result.value.rows === 0) {
    toast.info('No protocols to export', 'No protocol matches the search and filters.');
    return;
  }
  saveTextFile(datedFileName('order-desk-protocols'), result.value.csv);
  toast.success(`Exported ${plural(result.value.rows, 'protocol')} as CSV`);
}

/** The import's template: the columns and example rows made of catalog products. */
export async function downloadTemplate(): Promise<void> {
  const result = await call('protocols.csvTemplate', {});
  if (!result.ok) {
    const { title, detail } = describeError(result.error);
    toast.error(`The template could not be made. ${title}`, detail);
    return;
  }
  saveTextFile(TEMPLATE_FILE_NAME, result.value.csv);
}
