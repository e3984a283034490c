import { useMemo } from 'react';
import { useWatch, type Control } from 'react-hook-form';
import type { ProductRead } from '../../../../shared/api';
import type { EditorFormInput } from './editor-form';
import { PricePreview } from './PricePreview';
import { previewPricing } from './price-preview';

interface Props {
  control: Control<EditorFormInput, unknown, unknown>;
  product(id: number): ProductRead | undefined;
  discountValue: number | null;
  exact: boolean;
  discountKnown: boolean;
}

/**
 * The price preview, watching only what prices the order: a keystroke re-renders this and the
 * line it changed, not the whole form.
 */
export function LivePrice({ control, product, discountValue, exact, discountKnown }: Props) {
  const lineItems = useWatch({ control, name: 'lineItems' });
  const daysSupply = useWatch({ control, name: 'daysSupply' });
  const shippingMethod = useWatch({ control, name: 'shippingMethod' });
  const preview = useMemo(
    () =>
      previewPricing(
        { daysSupply, shippingMethod, lineItems: lineItems ?? [] },
        product,
        discountValue,
      ),
    [daysSupply, shippingMethod, lineItems, product, discountValue],
  );
  return <PricePreview preview={preview} exact={exact} discountKnown={discountKnown} />;
}
