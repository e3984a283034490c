import { sessionWrapper, type AreaHandlers, type IpcHandlerDeps } from './context';

/**
 * undo.*: the connection's undo history (main/protocols/undo.ts). Undo and redo go through the
 * protocols' commands, so the change is told and sent as any other; a step of the list's columns
 * through this desk's setting (Core.undoStep). The window notes its own changes of the list's
 * filters and sort, which live only there.
 */
export function undoHandlers({ core }: IpcHandlerDeps): AreaHandlers<'undo'> {
  const withSession = sessionWrapper(core);
  return {
    'undo.undo': withSession(async (which, s) => core.undoStep(s, 'undo', which)),
    'undo.redo': withSession(async (which, s) => core.undoStep(s, 'redo', which)),
    'undo.noteView': withSession(async (view, s) => s.protocols.noteListStep({ view })),
    'undo.state': withSession(async (_, s) => s.protocols.undoState()),
  };
}
