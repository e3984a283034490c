import { useMemo } from 'react';
import { useWatch, type Control } from 'react-hook-form';
import type { ProductRead } from '@shared/api';
import type { EditorFormInput } from './editor-form';
import { PricePreview } from './PricePreview';
import { previewPricing, type PreviewDiscount } from './price-preview';

interface Props {
  control: Control<EditorFormInput, unknown, unknown>;
  product(id: number): ProductRead | undefined;
  discount: PreviewDiscount;
  exact: boolean;
}

/**
 * The price preview, watching only what prices the order: a keystroke re-renders this and the
 * line it changed, not the whole form.
 */
export function LivePrice({ control, product, discount, exact }: Props) {
  const lineItems = useWatch({ control, name: 'lineItems' });
  const daysSupply = useWatch({ control, name: 'daysSupply' });
  const shippingMethod = useWatch({ control, name: 'shippingMethod' });
  const preview = useMemo(
    () =>
      previewPricing(
        { daysSupply, shippingMethod, lineItems: lineItems ?? [] },
        product,
        discount.known ? discount.value : null,
      ),
    [daysSupply, shippingMethod, lineItems, product, discount],
  );
  return <PricePreview preview={preview} exact={exact} discount={discount} />;
}
