/** Being built in this session: replaced by the real screen before it is committed. */
export default function ProtocolEditorScreen(_props: {
  mode: 'new' | 'edit' | 'order';
  localId?: string;
}) {
  return (
    <div className="screen">
      <h1>Editor</h1>
    </div>
  );
}
