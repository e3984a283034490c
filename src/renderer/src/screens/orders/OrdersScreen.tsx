/** Being built in this session: replaced by the real screen before it is committed. */
export default function OrdersScreen() {
  return (
    <div className="screen">
      <h1>OrdersScreen</h1>
    </div>
  );
}
