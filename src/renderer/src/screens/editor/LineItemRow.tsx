import { AlertTriangle, Trash2 } from 'lucide-react';
import { useWatch, type Control, type FieldErrors, type UseFormRegister } from 'react-hook-form';
import { isKnown, type ProductRead } from '@shared/api';
import { Field, sentence } from '@renderer/components/Field';
import { StatusBadge } from '@renderer/components/StatusBadge';
import { formatMoney, priceUnit, productStatusLabel } from '@renderer/lib/format';
import { DOSES, type EditorFormInput } from './editor-form';
import { previewPricing, type PreviewDiscount } from './price-preview';

/** What a product's status means for an order, when it is not simply active. */
export const STATUS_WARNINGS = {
  DRAFT: 'Draft product: the server refuses orders for it until it is published.',
  BACKORDERED: 'Backordered: it can be ordered, and ships when it is back in stock.',
  DISCONTINUED: 'Discontinued: the server refuses orders for it. Choose another product.',
} as const;

/** What a product's status means for an order; a status the app does not know is left to the server. */
function statusWarning(status: string): string {
  return isKnown(['DRAFT', 'BACKORDERED', 'DISCONTINUED'] as const, status)
    ? STATUS_WARNINGS[status]
    : `${productStatusLabel(status)}: the server decides whether it can be ordered.`;
}

interface Props {
  index: number;
  product: ProductRead | 'loading' | 'missing';
  productId: number;
  control: Control<EditorFormInput, unknown, unknown>;
  register: UseFormRegister<EditorFormInput>;
  errors: FieldErrors<EditorFormInput>;
  knownProduct(id: number): ProductRead | undefined;
  /** No line total while the partner's discount is not known: it would not be the price. */
  discount: PreviewDiscount;
  onRemove(): void;
}

const asCount = (v: string | undefined): number => (/^\d+$/.test((v ?? '').trim()) ? Number(v) : 0);

/**
 * One product of the protocol. A pack product takes the four doses, and its quantity (pills a
 * day) is their sum; an external product takes a quantity (units per 30 days) and no doses.
 */
export function LineItemRow({
  index,
  product,
  productId,
  control,
  register,
  errors,
  knownProduct,
  discount,
  onRemove,
}: Props) {
  const line = useWatch({ control, name: `lineItems.${index}` });
  const daysSupply = useWatch({ control, name: 'daysSupply' });
  const lineTotal =
    line && discount.known
      ? (previewPricing(
          { daysSupply, shippingMethod: 'STANDARD', lineItems: [line] },
          knownProduct,
          discount.value,
        ).lineTotals[0] ?? null)
      : null;
  const lineErrors = errors.lineItems?.[index];
  const name =
    typeof product === 'object'
      ? product.name
      : product === 'loading'
        ? `Product ${productId}`
        : `Product ${productId} (not in the catalog)`;
  const external = line?.external ?? false;
  const a = line?.administration;
  const sum = a
    ? asCount(a.morning) + asCount(a.afternoon) + asCount(a.evening) + asCount(a.sleep)
    : 0;
  const productError = lineErrors?.productId?.message;
  const quantityError = lineErrors?.quantity?.message;
  const headingId = `line-${index}-name`;
  const warning =
    typeof product === 'object' && product.status !== 'ACTIVE'
      ? statusWarning(product.status)
      : null;
  return (
    <div className="line-item" role="group" aria-labelledby={headingId}>
      <div className="line-item-head">
        <div className="line-item-title">
          <h3 id={headingId} className="line-item-name">
            {name}
          </h3>
          {typeof product === 'object' && (
            <span className="muted">
              {external ? 'External product' : 'Pack product'} · {formatMoney(product.price)} per{' '}
              {priceUnit(product)}
            </span>
          )}
          {typeof product === 'object' && product.status !== 'ACTIVE' && (
            <StatusBadge status={product.status} />
          )}
        </div>
        <div className="line-item-total">
          {lineTotal !== null && (
            <span aria-label={`Line total for ${name}`}>{formatMoney(lineTotal)}</span>
          )}
          <button
            type="button"
            className="icon-button"
            aria-label={`Remove ${name}`}
            onClick={onRemove}
          >
            <Trash2 aria-hidden="true" size={16} />
          </button>
        </div>
      </div>
      {warning && (
        <p
          className={`notice ${product !== 'loading' && typeof product === 'object' && product.status === 'BACKORDERED' ? 'notice-info' : 'notice-warn'} line-item-warning`}
        >
          <AlertTriangle aria-hidden="true" size={16} /> {warning}
        </p>
      )}
      {product === 'missing' && (
        <p className="notice notice-warn line-item-warning">
          <AlertTriangle aria-hidden="true" size={16} /> This product is not in the catalog on this
          computer; the server may refuse it.
        </p>
      )}
      {productError && <p className="field-error">{sentence(productError)}</p>}
      {external ? (
        <Field
          id={`line-${index}-quantity`}
          className="line-item-quantity"
          label="Quantity"
          hint="Units per 30 days."
          inputMode="numeric"
          autoComplete="off"
          maxLength={7}
          error={quantityError}
          {...register(`lineItems.${index}.quantity`)}
        />
      ) : (
        <fieldset className="doses">
          <legend className="field-label">Pills a day</legend>
          <div className="doses-row">
            {DOSES.map((d) => (
              <Field
                key={d.key}
                id={`line-${index}-${d.key}`}
                className="dose"
                label={d.label}
                inputMode="numeric"
                autoComplete="off"
                maxLength={7}
                error={lineErrors?.administration?.[d.key]?.message}
                {...register(`lineItems.${index}.administration.${d.key}`, {
                  deps: [`lineItems.${index}.quantity`],
                })}
              />
            ))}
            <p className="doses-sum" aria-live="polite">
              <span className="muted">Quantity</span>
              <output
                id={`line-${index}-sum`}
                aria-label={`Quantity of ${name}: pills a day`}
                className={quantityError ? 'doses-sum-bad' : undefined}
              >
                {sum}
              </output>
            </p>
          </div>
          {quantityError ? (
            <p className="field-error">{sentence(quantityError)} (the sum of the four doses)</p>
          ) : (
            <p className="field-hint">
              The quantity is the sum of the four doses, as the partner requires.
            </p>
          )}
        </fieldset>
      )}
    </div>
  );
}
