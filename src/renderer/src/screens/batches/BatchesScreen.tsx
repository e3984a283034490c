/** Being built in this session: replaced by the real screen before it is committed. */
export default function BatchesScreen() {
  return (
    <div className="screen">
      <h1>BatchesScreen</h1>
    </div>
  );
}
