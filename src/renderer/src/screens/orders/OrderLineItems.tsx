import { DAYS_SUPPLY_VALUES, type AppLineItem, type AppOrder, type DaysSupply } from '@shared/api';
import { centsToMoney, moneyToCents } from '@shared/money';
import { billedUnits } from '@shared/pricing';
import { formatMoney } from '@renderer/lib/format';
import { useCatalogProduct } from './use-order-detail';

const DOSES = [
  ['morning', 'morning'],
  ['afternoon', 'afternoon'],
  ['evening', 'evening'],
  ['sleep', 'bedtime'],
] as const;

/** "1 morning, 1 bedtime"; an external product has no doses. */
function Doses({ item }: { item: AppLineItem }) {
  const a = item.administration;
  if (!a)
    return (
      <span className="muted">{item.external === false ? 'Not given' : 'None (external)'}</span>
    );
  const given = DOSES.filter(([key]) => a[key] > 0);
  if (given.length === 0) return <span className="muted">None</span>;
  return <>{given.map(([key, label]) => `${a[key]} ${label}`).join(', ')}</>;
}

/**
 * The line's total: the server's, or (1.0.1 reads carry none) the spec's derivation from the
 * discounted unit price, the quantity and the days supply; a dash while neither is known.
 */
function lineTotal(
  item: AppLineItem,
  daysSupply: number,
  product: { external: boolean } | null,
): string | null {
  if (item.totalPrice) return item.totalPrice;
  const external = item.external ?? product?.external;
  if (external === undefined || !(DAYS_SUPPLY_VALUES as readonly number[]).includes(daysSupply))
    return null;
  const units = billedUnits({ quantity: item.quantity, external }, daysSupply as DaysSupply);
  return centsToMoney(moneyToCents(item.discountedPrice) * units);
}

/** The product's name: the order's own, or (1.0.1 reads carry none) the catalog's. */
function ProductName({ item, product }: { item: AppLineItem; product: { name: string } | null }) {
  const name = item.name ?? product?.name ?? null;
  return (
    <>
      {name ?? `Product ${item.productId}`}
      {item.packDescription && (
        <span className="order-item-pack muted">{item.packDescription}</span>
      )}
    </>
  );
}

export function OrderLineItems({ order }: { order: AppOrder }) {
  return (
    <div
      className="order-table-wrap"
      role="group"
      aria-labelledby="order-items-heading"
      // It scrolls sideways in a narrow window: keyboard users scroll it once it has the focus.
      tabIndex={0}
    >
      <table className="table order-items">
        <caption className="visually-hidden">Line items</caption>
        <thead>
          <tr>
            <th scope="col">Product</th>
            <th scope="col" className="num">
              Quantity
            </th>
            <th scope="col">Doses a day</th>
            <th scope="col" className="num">
              Unit price
            </th>
            <th scope="col" className="num">
              Line total
            </th>
          </tr>
        </thead>
        <tbody>
          {order.lineItems.map((item, i) => (
            <LineItemRow key={`${item.productId}-${i}`} item={item} daysSupply={order.daysSupply} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function LineItemRow({ item, daysSupply }: { item: AppLineItem; daysSupply: number }) {
  const product = useCatalogProduct(item);
  const total = lineTotal(item, daysSupply, product);
  return (
    <tr>
      <th scope="row">
        <ProductName item={item} product={product} />
      </th>
      <td className="num">{item.quantity}</td>
      <td>
        <Doses item={item} />
      </td>
      <td className="num">
        {item.discountedPrice !== item.price && (
          <s className="muted" aria-label={`list price ${formatMoney(item.price)}`}>
            {formatMoney(item.price)}
          </s>
        )}{' '}
        {formatMoney(item.discountedPrice)}
      </td>
      <td className="num">{total ? formatMoney(total) : '—'}</td>
    </tr>
  );
}

const minus = (amount: string) =>
  Number(amount) > 0 ? `−${formatMoney(amount)}` : formatMoney(amount);

/** The server's totals: what the order costs, then the discounts and fees inside it. */
export function OrderTotals({ order }: { order: AppOrder }) {
  return (
    <table className="table order-totals">
      <caption className="visually-hidden">Totals</caption>
      <tbody>
        <tr>
          <th scope="row">Subtotal</th>
          <td className="num">{formatMoney(order.subtotalPrice)}</td>
        </tr>
        <tr className="order-totals-part">
          <th scope="row">
            Discounts{order.discount ? ` (${order.discount})` : ''}
            <span className="muted"> included in the subtotal</span>
          </th>
          <td className="num">{minus(order.totalDiscount)}</td>
        </tr>
        <tr className="order-totals-part">
          <th scope="row">
            Volume discount<span className="muted"> part of the discounts</span>
          </th>
          <td className="num">{minus(order.totalVolumeDiscount)}</td>
        </tr>
        <tr className="order-totals-part">
          <th scope="row">
            Fees<span className="muted"> included in the subtotal</span>
          </th>
          <td className="num">{formatMoney(order.totalFees)}</td>
        </tr>
        <tr>
          <th scope="row">Shipping</th>
          <td className="num">{formatMoney(order.totalShipping)}</td>
        </tr>
        <tr className="order-totals-total">
          <th scope="row">Total</th>
          <td className="num">{formatMoney(order.totalPrice)}</td>
        </tr>
      </tbody>
    </table>
  );
}
