import { RefillsQuery, RefillsView } from '../work-views';
import { read, type AreaChannels } from './channel';

/** refills.due: the protocols whose supply runs out soon, and those never ordered. */
export const refillsChannels = {
  /** Protocols whose patient's last known order runs out within the days given. */
  'refills.due': read(RefillsQuery, RefillsView, ['orders', 'protocols', 'jobs']),
} as const satisfies AreaChannels<'refills'>;
