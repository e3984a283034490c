import type { ProductRead } from '@shared/api';
import { servingText } from '@renderer/lib/format';

type Panel = ProductRead['SupplementFactsPanel'];

interface Row {
  name: string;
  amount: string;
  dailyValue: string;
}

const text = (v: unknown): string =>
  typeof v === 'string' || typeof v === 'number' ? String(v) : '';

/** Nutrition rows carry only a name for sure; amount, unit and daily value when present. */
function nutritionRows(panel: Panel): Row[] {
  return panel.nutritionInformation.map((n) => ({
    name: n.name,
    amount: [text(n.value), text(n.unit)].filter(Boolean).join(' '),
    dailyValue: text(n.daily_value ?? n.dailyValue),
  }));
}

/** The label's Supplement Facts panel: serving, nutrients with amounts and daily values. */
export function SupplementFacts({ product }: { product: ProductRead }) {
  const panel = product.SupplementFactsPanel;
  const rows: Row[] = [
    ...nutritionRows(panel),
    ...panel.ingredientInformation.map((i) => ({
      name: i.name,
      amount: `${i.value} ${i.unit}`.trim(),
      dailyValue: i.daily_value,
    })),
  ];
  const u = product.recommendedUsage;
  const perDay = u.morning + u.afternoon + u.evening + u.sleep;
  // For pack products the usage counts pills; for external products it counts servings.
  const servingsPerDay = product.external
    ? perDay
    : panel.servingSize > 0
      ? perDay / panel.servingSize
      : 0;
  const dagger = rows.some((r) => r.dailyValue.includes('†'));

  return (
    <section className="facts" aria-labelledby="facts-heading">
      <h3 id="facts-heading" className="facts-title">
        Supplement Facts
      </h3>
      <dl className="facts-serving">
        <div>
          <dt>Serving size</dt>
          <dd>{servingText(panel)}</dd>
        </div>
        {servingsPerDay > 0 && (
          <div>
            <dt>Servings per day (recommended)</dt>
            <dd>{Number.isInteger(servingsPerDay) ? servingsPerDay : servingsPerDay.toFixed(1)}</dd>
          </div>
        )}
      </dl>
      {rows.length > 0 ? (
        <table className="facts-table">
          <caption className="visually-hidden">
            Amount per serving and % Daily Value of each nutrient
          </caption>
          <thead>
            <tr>
              <th scope="col">Nutrient</th>
              <th scope="col" className="num">
                Amount per serving
              </th>
              <th scope="col" className="num">
                % Daily Value
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => (
              <tr key={`${r.name}-${i}`}>
                <th scope="row">{r.name}</th>
                <td className="num">{r.amount || '—'}</td>
                <td className="num">{r.dailyValue || '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="muted">No nutrients listed.</p>
      )}
      {dagger && <p className="facts-note">† Daily Value not established.</p>}
      <p className="facts-other">
        <strong>Other ingredients:</strong>{' '}
        {panel.otherIngredients.length > 0 ? panel.otherIngredients.join(', ') : 'none'}.
      </p>
    </section>
  );
}
