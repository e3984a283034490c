import { z } from 'zod';
import { UpdateSettings } from '@shared/update-views';

/** The Updates form: the switch and the feed URL box (emptied: no URL), then the contract's rules. */
export const UpdatesForm = z
  .object({
    enabled: z.boolean(),
    feedUrl: z.string().transform((v): string | null => (v.trim() === '' ? null : v.trim())),
  })
  .pipe(UpdateSettings);
export type UpdatesFormInput = z.input<typeof UpdatesForm>;
export type UpdatesFormOutput = z.output<typeof UpdatesForm>;

export const updatesFormValues = (settings: UpdateSettings): UpdatesFormInput => ({
  enabled: settings.enabled,
  feedUrl: settings.feedUrl ?? '',
});

/** "every 4 hours", "every 90 minutes". */
export function everyInterval(minutes: number): string {
  if (minutes % 60 !== 0) return `every ${minutes} minutes`;
  const hours = minutes / 60;
  return hours === 1 ? 'every hour' : `every ${hours} hours`;
}
