import { paletteSearch } from '@main/palette/palette-search';
import { sessionWrapper, type AreaHandlers, type IpcHandlerDeps } from './context';

/** palette.*: what the command palette finds as the user types. */
export function paletteHandlers({ core }: IpcHandlerDeps): AreaHandlers<'palette'> {
  const withSession = sessionWrapper(core);
  return {
    'palette.search': withSession(async ({ text, limit }) =>
      paletteSearch(core.store, text, limit),
    ),
  };
}
