import { useEffect, useState } from 'react';
import type { IpcError } from '../../../../shared/ipc';
import type { ProtocolView } from '../../../../shared/protocol-views';
import { Failed, Loading } from '../../components/States';
import { call } from '../../lib/ipc';
import '../../styles/editor.css';
import { ProtocolEditor } from './ProtocolEditor';

interface Props {
  mode: 'new' | 'edit' | 'order';
  localId?: string;
}

type Load =
  | { state: 'loading' }
  | { state: 'ready'; view: ProtocolView }
  | { state: 'failed'; error: IpcError };

function EditSavedProtocol({ localId }: { localId: string }) {
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let live = true;
    setLoad({ state: 'loading' });
    void call('protocols.get', { localId }).then((r) => {
      if (!live) return;
      setLoad(r.ok ? { state: 'ready', view: r.value } : { state: 'failed', error: r.error });
    });
    return () => {
      live = false;
    };
  }, [localId, attempt]);
  if (load.state === 'loading') return <Loading label="Loading the protocol…" />;
  if (load.state === 'failed') {
    return (
      <div className="screen">
        <h1>Protocol</h1>
        <Failed
          what="The protocol could not be opened."
          error={load.error}
          onRetry={() => setAttempt((a) => a + 1)}
        />
      </div>
    );
  }
  return <ProtocolEditor key={localId} mode="edit" initial={load.view} />;
}

/** #/protocols/new, #/protocols/:localId and #/new-order: one editor for all three. */
export default function ProtocolEditorScreen({ mode, localId }: Props) {
  if (mode === 'edit' && localId) return <EditSavedProtocol localId={localId} />;
  return <ProtocolEditor key={mode} mode={mode === 'order' ? 'order' : 'new'} initial={null} />;
}
