import { sessionWrapper, type AreaHandlers, type IpcHandlerDeps } from './context';

/**
 * undo.*: the connection's undo history (main/protocols/undo.ts). Undo and redo go through the
 * protocols' commands, so the change is told and sent as any other.
 */
export function undoHandlers({ core }: IpcHandlerDeps): AreaHandlers<'undo'> {
  const withSession = sessionWrapper(core);
  return {
    'undo.undo': withSession(async (_, s) => s.protocols.undo()),
    'undo.redo': withSession(async (_, s) => s.protocols.redo()),
    'undo.state': withSession(async (_, s) => s.protocols.undoState()),
  };
}
