import { sessionWrapper, type AreaHandlers, type IpcHandlerDeps } from './context';

/**
 * undo.*: the connection's undo history (main/protocols/undo.ts). Undo and redo go through the
 * protocols' commands, so the change is told and sent as any other.
 */
export function undoHandlers({ core }: IpcHandlerDeps): AreaHandlers<'undo'> {
  const withSession = sessionWrapper(core);
  return {
    'undo.undo': withSession(async (which, s) => s.protocols.undo(which)),
    'undo.redo': withSession(async (which, s) => s.protocols.redo(which)),
    'undo.state': withSession(async (_, s) => s.protocols.undoState()),
  };
}
