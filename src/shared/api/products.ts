import { z } from 'zod';
import { Cursor, Money, ProductStatus, Timestamp } from './common';
import { Administration } from './line-items';

export const PRODUCT_FORMS = ['tablet', 'capsule', 'softgel', 'gummy'] as const;
export const ProductForm = z.enum(PRODUCT_FORMS);

export const SERVING_TYPES = ['softgel', 'tablet', 'capsule', 'gummy', 'scoop'] as const;

export const IngredientInformation = z.object({
  name: z.string(),
  value: z.string(),
  unit: z.string(),
  daily_value: z.string(),
});

/** Only `name` is specified; the other fields are unspecified, so they pass through. */
export const NutritionInformation = z.looseObject({ name: z.string() });

export const SupplementFactsPanel = z.object({
  servingSize: z.int(),
  type: z.enum(SERVING_TYPES),
  otherIngredients: z.array(z.string()),
  ingredientInformation: z.array(IngredientInformation),
  nutritionInformation: z.array(NutritionInformation),
});
export type SupplementFactsPanel = z.infer<typeof SupplementFactsPanel>;

export const Product = z.object({
  id: z.int(),
  name: z.string(),
  description: z.string(),
  packDescription: z.string(),
  price: Money,
  external: z.boolean(),
  productImage: z.string(),
  recommendedUsage: Administration,
  form: ProductForm,
  certifications: z.array(z.string()),
  allergens: z.array(z.string()),
  SupplementFactsPanel: SupplementFactsPanel,
  status: ProductStatus,
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Product = z.infer<typeof Product>;

export const ProductList = z.object({ products: z.array(Product), cursor: Cursor });
export type ProductList = z.infer<typeof ProductList>;
