/** Being built in this session: replaced by the real screen before it is committed. */
export default function ConflictsScreen() {
  return (
    <div className="screen">
      <h1>ConflictsScreen</h1>
    </div>
  );
}
