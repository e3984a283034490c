import { z } from 'zod';
import { StaffName, StaffView } from '../activity-views';
import { call, type AreaChannels } from './channel';

/** staff.*: the short list of people who share this desk, and who is at it (kept in app.db). */
export const staffChannels = {
  'staff.add': call(z.object({ name: StaffName }), StaffView),
  'staff.rename': call(z.object({ from: z.string().min(1).max(60), to: StaffName }), StaffView),
  'staff.remove': call(z.object({ name: z.string().min(1).max(60) }), StaffView),
  /** Who is at the desk now (null: nobody picked); every activity entry names them. */
  'staff.choose': call(z.object({ name: z.string().min(1).max(60).nullable() }), StaffView),
} as const satisfies AreaChannels<'staff'>;
