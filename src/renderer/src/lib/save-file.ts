import type { CsvFile } from '@shared/csv-file';
import type { IpcResult } from '@shared/ipc';
import { toast } from '../stores/toast-store';
import { plural } from './format';
import { describeError } from './ipc';

/**
 * Hands a text file to the user: the browser's download in the browser host, Electron's save
 * dialog in the app (a download from the page asks where to save it). The text is already
 * complete (CSV made by main), so one Blob and one click are all it takes.
 */
export function saveTextFile(
  fileName: string,
  text: string,
  type = 'text/csv;charset=utf-8',
): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // The click has started the download; the object URL can go once this task is done.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** Where a saved file is: the page cannot know the folder the browser or the save dialog chose. */
const SAVED_WHERE = 'In your Downloads folder, or where you chose to save it.';

/** A file name with today's local date: `order-desk-protocols-2026-11-25.csv`. */
export function datedFileName(stem: string, extension = 'csv', now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  const day = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
  return `${stem}-${day}.${extension}`;
}

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
