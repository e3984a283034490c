import type { CsvFile } from '@shared/csv-file';
import type { IpcResult } from '@shared/ipc';
import { plural } from '@renderer/lib/format';
import { describeError } from '@renderer/lib/ipc';
import { saveTextFile } from '@renderer/lib/save-file';
import { toast } from './toast-store';

/** Where a saved file is: the page cannot know the folder the browser or the save dialog chose. */
const SAVED_WHERE = 'In your Downloads folder, or where you chose to save it.';

/**
 * An export's answer from main, handed over: the file saved as `fileName` and a toast naming it
 * and its rows (`saved` words it otherwise); a failure as an error toast (`failure` then the
 * reason); no rows, when `empty` is given, as that message instead of an empty file.
 */
export function handOverCsvExport(
  result: IpcResult<CsvFile>,
  o: {
    fileName: string;
    noun: string;
    /** The noun's plural when it is not `noun` + s ("entries"). */
    nounPlural?: string;
    failure: string;
    empty?: { title: string; detail: string };
    saved?: (rows: string) => string;
  },
): void {
  if (!result.ok) {
    const { title, detail } = describeError(result.error);
    toast.error(`${o.failure} ${title}`, detail);
    return;
  }
  if (result.value.rows === 0 && o.empty) {
    toast.info(o.empty.title, o.empty.detail);
    return;
  }
  saveTextFile(o.fileName, result.value.csv);
  const rows = plural(result.value.rows, o.noun, o.nounPlural);
  toast.success(o.saved ? o.saved(rows) : `Exported ${rows} to ${o.fileName}.`, SAVED_WHERE);
}
