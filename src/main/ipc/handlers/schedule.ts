import { IpcFailure } from '../errors';
import type { AreaHandlers, IpcHandlerDeps } from './context';

/** What the browser host answers: its page prints with the browser's own dialog instead. */
export const SAVE_PDF_UNAVAILABLE =
  'Saving a PDF directly is part of the desktop app. In the browser, use Print and choose "Save as PDF" as the printer.';

/** schedule.*: the dosing schedule saved as a PDF (the desktop app's print to PDF). */
export function scheduleHandlers({ host }: IpcHandlerDeps): AreaHandlers<'schedule'> {
  return {
    'schedule.savePdf': async ({ fileName }) => {
      if (!host.savePdf) throw new IpcFailure('unavailable', SAVE_PDF_UNAVAILABLE);
      return host.savePdf(fileName);
    },
  };
}
