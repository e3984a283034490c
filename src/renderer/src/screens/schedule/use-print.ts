import { useCallback, useState } from 'react';
import type { ScheduleSubjects } from '@shared/activity-views';
import { call, describeError } from '@renderer/lib/ipc';
import { toast } from '@renderer/stores/toast-store';

/**
 * Printing a schedule and saving it as a PDF. The print dialog is the browser's, so the window
 * tells main that it opened it (schedule.printed: the activity record's entry) just before;
 * schedule.savePdf records in main. `subjects`: what the schedule is of.
 */
export function usePrintActions(fileName: string, subjects: ScheduleSubjects) {
  const [saving, setSaving] = useState(false);
  const key = JSON.stringify(subjects);

  const print = useCallback(() => {
    void call('schedule.printed', { subjects: JSON.parse(key) as ScheduleSubjects }).then(
      (result) => {
        if (result.ok) return;
        const { title, detail } = describeError(result.error);
        toast.error(`The print was not recorded in the activity record. ${title}`, detail);
      },
    );
    window.print();
  }, [key]);

  const savePdf = useCallback(async () => {
    setSaving(true);
    const result = await call('schedule.savePdf', {
      fileName,
      subjects: JSON.parse(key) as ScheduleSubjects,
    });
    setSaving(false);
    if (!result.ok) {
      const { title, detail } = describeError(result.error);
      toast.error(`The schedule could not be saved as a PDF. ${title}`, detail);
    } else if (result.value.saved) {
      toast.success('The schedule is saved as a PDF.', `Saved as ${fileName} where you chose.`);
    }
  }, [fileName, key]);

  return { print, savePdf, saving };
}
