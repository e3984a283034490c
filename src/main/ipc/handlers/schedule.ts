import type { ScheduleSubjects } from '@shared/activity-views';
import { IpcFailure } from '../errors';
import {
  requireSession,
  sessionWrapper,
  type AreaHandlers,
  type IpcHandlerDeps,
  type Session,
} from './context';

/** What the browser host answers: its page prints with the browser's own dialog instead. */
export const SAVE_PDF_UNAVAILABLE =
  'Saving a PDF directly is part of the desktop app. In the browser, use Print and choose "Save as PDF" as the printer.';

/**
 * schedule.*: the dosing schedule saved as a PDF (the desktop app's print to PDF), and the
 * window's word that it printed one; both recorded in the activity record.
 */
export function scheduleHandlers({ core, host }: IpcHandlerDeps): AreaHandlers<'schedule'> {
  /** The schedule's entry: its protocol or orders, and their patients as this store has them. */
  const withSession = sessionWrapper(core);
  const record = (
    s: Session,
    action: 'schedule-printed' | 'schedule-saved',
    subjects: ScheduleSubjects,
  ) => {
    const protocols = subjects.protocols ?? [];
    const orders = subjects.orders ?? [];
    const patients = [
      ...protocols.map((id) => core.store.protocols.get(id)?.sourceId),
      ...orders.map((id) => core.store.orders.get(id)?.customer.sourceId),
    ].filter((id): id is string => id !== undefined);
    s.activity.record({
      action,
      subjects: { patients, protocols, orders },
      detail: { schedules: Math.max(1, orders.length) },
    });
  };
  return {
    'schedule.savePdf': async ({ fileName, subjects }) => {
      // The host's word comes first: the browser host has no PDF, connected or not.
      if (!host.savePdf) throw new IpcFailure('unavailable', SAVE_PDF_UNAVAILABLE);
      const s = requireSession(core);
      const result = await host.savePdf(fileName);
      if (result.saved) record(s, 'schedule-saved', subjects);
      return result;
    },
    'schedule.printed': withSession(async ({ subjects }, s) => {
      record(s, 'schedule-printed', subjects);
      return null;
    }),
  };
}
