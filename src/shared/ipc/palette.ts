import { PaletteQuery, PaletteResults } from '../palette-views';
import { read, type AreaChannels } from './channel';

/** palette.*: what the command palette finds as the user types. */
export const paletteChannels = {
  /** The patients, protocols and orders matching the typed text. */
  'palette.search': read(PaletteQuery, PaletteResults, ['protocols', 'jobs', 'orders']),
} as const satisfies AreaChannels<'palette'>;
