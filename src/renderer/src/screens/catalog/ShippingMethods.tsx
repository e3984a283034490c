import { Empty, Failed, Loading } from '@renderer/components/States';
import { dayRange, formatMoney } from '@renderer/lib/format';
import { useShippingMethods } from '@renderer/stores/catalog-reads';

/** The shipping methods an order can use, with their prices and delivery times. */
export function ShippingMethods() {
  const shipping = useShippingMethods();
  const methods = shipping.data;

  return (
    <section className="card" aria-labelledby="shipping-heading">
      <h2 id="shipping-heading">Shipping methods</h2>
      {shipping.status === 'loading' && <Loading label="Loading shipping methods…" />}
      {shipping.status === 'failed' && !methods && (
        <Failed
          what="Shipping methods could not be loaded."
          error={shipping.error}
          onRetry={shipping.refresh}
        />
      )}
      {methods && methods.length === 0 && (
        <Empty title="No shipping methods yet. Sync to fetch them from the server." />
      )}
      {methods && methods.length > 0 && (
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Method</th>
              <th scope="col">Description</th>
              <th scope="col">Delivery</th>
              <th scope="col" className="num">
                Price
              </th>
            </tr>
          </thead>
          <tbody>
            {methods.map((m) => (
              <tr key={m.id}>
                <th scope="row">
                  {m.name} <span className="muted code">{m.id}</span>
                </th>
                <td>{m.description}</td>
                <td>{dayRange(m.minDays, m.maxDays, 'business day')}</td>
                <td className="num">{formatMoney(m.price)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
