/** Being built in this session: replaced by the real screen before it is committed. */
export default function RefillsScreen() {
  return (
    <div className="screen">
      <h1>RefillsScreen</h1>
    </div>
  );
}
