import { z } from 'zod';
import { ScheduleSubjects } from '../activity-views';
import { SavePdfArgs, SavePdfResult } from '../schedule-pdf';
import { call, Nothing, type AreaChannels } from './channel';

/** schedule.*: the dosing schedule saved as a PDF, and the window's word that it printed one. */
export const scheduleChannels = {
  /**
   * The page as it prints (a dosing schedule), saved as a PDF where the user chooses in the save
   * dialog. The desktop app only: the browser host answers 'unavailable' (the browser's own print
   * dialog saves a PDF there).
   */
  'schedule.savePdf': call(SavePdfArgs, SavePdfResult),
  /**
   * The window opened the print dialog for a schedule (only the window knows): recorded in the
   * activity record, nothing else.
   */
  'schedule.printed': call(z.object({ subjects: ScheduleSubjects }), Nothing),
} as const satisfies AreaChannels<'schedule'>;
