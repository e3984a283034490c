import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import { DAYS_SUPPLY_VALUES, SHIPPING_METHODS } from '@shared/api';
import { centsToMoney } from '@shared/money';
import { SHIPPING_PRICES } from '@shared/pricing';
import { sentence } from '@renderer/components/Field';
import { dayRange, formatMoney } from '@renderer/lib/format';
import { useShippingMethods } from '../catalog/use-catalog';
import type { EditorFormInput } from './editor-form';

const ORDER_TYPES = [
  { value: 'ONE_TIME', label: 'One time' },
  { value: 'SUBSCRIPTION', label: 'Subscription' },
] as const;

const METHOD_NAMES = { STANDARD: 'Standard', EXPRESS: 'Express', OVERNIGHT: 'Overnight' };

interface Props {
  register: UseFormRegister<EditorFormInput>;
  errors: FieldErrors<EditorFormInput>;
}

/** Days supply, shipping method (with its price from the catalog) and order type. */
export function OrderSettings({ register, errors }: Props) {
  const shipping = useShippingMethods().data;
  const methods =
    shipping && shipping.length > 0
      ? shipping.map((m) => ({
          id: m.id,
          text: `${m.name}: ${formatMoney(m.price)}, ${dayRange(m.minDays, m.maxDays)}`,
        }))
      : SHIPPING_METHODS.map((id) => ({
          id,
          text: `${METHOD_NAMES[id]}: ${formatMoney(centsToMoney(SHIPPING_PRICES[id]))}`,
        }));
  const shippingError = errors.shippingMethod?.message;
  return (
    <fieldset className="form-group">
      <legend>Order</legend>
      <div className="editor-order-row">
        <fieldset className="segmented">
          <legend>Days supply</legend>
          {DAYS_SUPPLY_VALUES.map((days) => (
            <label key={days} className="segment">
              <input type="radio" value={String(days)} {...register('daysSupply')} />
              <span>{days} days</span>
            </label>
          ))}
        </fieldset>
        <fieldset className="segmented">
          <legend>Order type</legend>
          {ORDER_TYPES.map((t) => (
            <label key={t.value} className="segment">
              <input type="radio" value={t.value} {...register('orderType')} />
              <span>{t.label}</span>
            </label>
          ))}
        </fieldset>
      </div>
      {errors.daysSupply?.message && (
        <p className="field-error">{sentence(errors.daysSupply.message)}</p>
      )}
      {errors.orderType?.message && (
        <p className="field-error">{sentence(errors.orderType.message)}</p>
      )}
      <div className="field">
        <label className="field-label" htmlFor="editor-shipping">
          Shipping method
        </label>
        <select
          id="editor-shipping"
          className="input select"
          aria-invalid={shippingError ? true : undefined}
          aria-describedby={shippingError ? 'editor-shipping-error' : undefined}
          {...register('shippingMethod')}
        >
          {methods.map((m) => (
            <option key={m.id} value={m.id}>
              {m.text}
            </option>
          ))}
        </select>
        {shippingError && (
          <p id="editor-shipping-error" className="field-error">
            {sentence(shippingError)}
          </p>
        )}
      </div>
    </fieldset>
  );
}
