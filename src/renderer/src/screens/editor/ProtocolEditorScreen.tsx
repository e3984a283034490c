import { Failed, Loading } from '@renderer/components/States';
import '@renderer/styles/editor.css';
import { ProtocolEditor } from './ProtocolEditor';
import { useSavedProtocol } from './use-protocol-editor';

interface Props {
  mode: 'new' | 'edit' | 'order';
  localId?: string;
}

function EditSavedProtocol({ localId }: { localId: string }) {
  // Read once: the form starts from it; the editor follows the protocol's sync state itself.
  const load = useSavedProtocol(localId);
  if (load.status === 'loading') return <Loading label="Loading the protocol…" />;
  if (load.status === 'failed') {
    return (
      <div className="screen">
        <h1>Protocol</h1>
        <Failed
          what="The protocol could not be opened."
          error={load.error}
          onRetry={load.refresh}
        />
      </div>
    );
  }
  return <ProtocolEditor key={localId} mode="edit" initial={load.data} />;
}

/** #/protocols/new, #/protocols/:localId and #/new-order: one editor for all three. */
export default function ProtocolEditorScreen({ mode, localId }: Props) {
  if (mode === 'edit' && localId) return <EditSavedProtocol localId={localId} />;
  return <ProtocolEditor key={mode} mode={mode === 'order' ? 'order' : 'new'} initial={null} />;
}
