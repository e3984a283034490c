import { z } from 'zod';
import { ScheduleSubjects } from './activity-views';

/** The longest file name a saved schedule may have (its extension included). */
export const PDF_FILE_NAME_MAX = 120;

/**
 * The file name a dosing schedule is saved under, as the window proposes it: a name alone (no
 * folder, so no path can be smuggled in), letters, digits, spaces, dots, hyphens and
 * underscores, ending in .pdf. The folder is the user's choice in the save dialog.
 */
export const PdfFileName = z
  .string()
  .max(PDF_FILE_NAME_MAX, `at most ${PDF_FILE_NAME_MAX} characters`)
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9 ._-]*\.pdf$/,
    'a file name ending in .pdf (letters, digits, spaces, dots, hyphens, underscores)',
  );

/**
 * schedule.savePdf: the page as it prints, saved as a PDF where the user chooses; `subjects` is
 * what the schedule is of, for the activity record (the file name has the patient's name: it is
 * never recorded).
 */
export const SavePdfArgs = z.object({ fileName: PdfFileName, subjects: ScheduleSubjects });
export type SavePdfArgs = z.infer<typeof SavePdfArgs>;

/** `saved` is false when the user closed the save dialog without choosing a file. */
export const SavePdfResult = z.object({ saved: z.boolean() });
export type SavePdfResult = z.infer<typeof SavePdfResult>;
