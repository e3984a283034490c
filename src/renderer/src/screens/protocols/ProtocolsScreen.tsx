/** Being built in this session: replaced by the real screen before it is committed. */
export default function ProtocolsScreen() {
  return (
    <div className="screen">
      <h1>ProtocolsScreen</h1>
    </div>
  );
}
