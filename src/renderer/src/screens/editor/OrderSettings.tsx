import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import { DAYS_SUPPLY_VALUES, OrderType, SHIPPING_METHODS } from '@shared/api';
import { centsToMoney } from '@shared/money';
import { ORDER_TYPE_WORDS, SHIPPING_METHOD_WORDS } from '@shared/order-words';
import { SHIPPING_PRICES } from '@shared/pricing';
import { sentence } from '@renderer/components/Field';
import { dayRange, formatMoney } from '@renderer/lib/format';
import { useShippingMethods } from '@renderer/stores/catalog-reads';
import type { EditorFormInput } from './editor-form';

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
          text: `${SHIPPING_METHOD_WORDS[id]}: ${formatMoney(centsToMoney(SHIPPING_PRICES[id]))}`,
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
          {OrderType.options.map((t) => (
            <label key={t} className="segment">
              <input type="radio" value={t} {...register('orderType')} />
              <span>{ORDER_TYPE_WORDS[t]}</span>
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
