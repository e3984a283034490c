import { useMemo } from 'react';
import type { ProductFigure } from '@shared/dashboard-views';
import { formatMoney } from '@renderer/lib/format';
import { BarChart, type ChartSeries } from './BarChart';
import { ChartCard } from './ChartCard';
import { amountValue } from './dashboard-figures';

const productName = (p: ProductFigure) => p.name ?? `Product ${p.productId}`;
const shortened = (text: string, max: number) =>
  text.length > max ? `${text.slice(0, max - 1)}…` : text;
const wholeDollars = (v: number) => `$${Math.round(v).toLocaleString('en-US')}`;

function TopProducts({
  title,
  products,
  by,
}: {
  title: string;
  products: readonly ProductFigure[];
  by: 'quantity' | 'spend';
}) {
  // The chart's axis has room for about 28 characters; the table names each product in full.
  const labels = useMemo(() => products.map((p) => shortened(productName(p), 28)), [products]);
  const series = useMemo<ChartSeries[]>(
    () => [
      by === 'quantity'
        ? {
            label: 'Quantity',
            color: '--chart-new',
            kind: 'bar',
            values: products.map((p) => p.quantity),
          }
        : {
            label: 'Spend',
            color: '--chart-delivered',
            kind: 'bar',
            values: products.map((p) => amountValue(p.amount)),
          },
    ],
    [products, by],
  );
  const table = (
    <table className="table">
      <caption>{title}, standing orders of the last 12 months</caption>
      <thead>
        <tr>
          <th scope="col">Rank</th>
          <th scope="col">Product</th>
          <th scope="col">Quantity</th>
          <th scope="col">Spend</th>
        </tr>
      </thead>
      <tbody>
        {products.map((p, i) => (
          <tr key={p.productId}>
            <td>{i + 1}</td>
            <th scope="row">{productName(p)}</th>
            <td data-figure="quantity">{p.quantity}</td>
            <td data-figure="spend">{formatMoney(p.amount)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
  return (
    <ChartCard
      title={title}
      chart={
        products.length === 0 ? (
          <p className="muted">No order in the last 12 months.</p>
        ) : (
          <BarChart
            labels={labels}
            series={series}
            horizontal
            integer={by === 'quantity'}
            height={Math.max(160, products.length * 30 + 40)}
            {...(by === 'spend' ? { format: wholeDollars } : {})}
          />
        )
      }
      table={table}
    />
  );
}

/** The ten products ordered most, by quantity and by spend (standing orders only). */
export function ProductsSection({
  byQuantity,
  bySpend,
}: {
  byQuantity: readonly ProductFigure[];
  bySpend: readonly ProductFigure[];
}) {
  return (
    <div className="dashboard-grid">
      <TopProducts title="Top 10 products by quantity" products={byQuantity} by="quantity" />
      <TopProducts title="Top 10 products by spend" products={bySpend} by="spend" />
    </div>
  );
}
