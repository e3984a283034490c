import { z } from 'zod';
import { PartnerSettingsPatch, type PartnerSettings } from '@shared/api';

/** The editable settings, in the order the form shows them. */
export const EDITABLE = [
  'primaryColor',
  'secondaryColor',
  'logo',
  'phone',
  'supportEmail',
  'website',
  'webhookUrl',
  'billingAddressLine1',
  'billingAddressLine2',
  'billingCity',
  'billingState',
  'billingPostalCode',
  'billingCountry',
] as const;
export type Editable = (typeof EDITABLE)[number];

const shape = PartnerSettingsPatch.shape;

/** A text box: trimmed, and an emptied box means "clear the field" (null), then the contract's rule. */
const box = (rule: z.ZodType<string | null | undefined, string | null | undefined>) =>
  z
    .string()
    .transform((v): string | null => (v.trim() === '' ? null : v.trim()))
    .pipe(rule as z.ZodType<string | null | undefined, string | null>);

export const SettingsForm = z.object({
  primaryColor: box(shape.primaryColor),
  secondaryColor: box(shape.secondaryColor),
  logo: box(shape.logo),
  phone: box(shape.phone),
  supportEmail: box(shape.supportEmail),
  website: box(shape.website),
  webhookUrl: box(shape.webhookUrl),
  billingAddressLine1: box(shape.billingAddressLine1),
  billingAddressLine2: box(shape.billingAddressLine2),
  billingCity: box(shape.billingCity),
  billingState: box(shape.billingState),
  billingPostalCode: box(shape.billingPostalCode),
  billingCountry: box(shape.billingCountry),
});
export type SettingsFormInput = z.input<typeof SettingsForm>;
export type SettingsFormOutput = z.output<typeof SettingsForm>;

export function formValues(settings: PartnerSettings): SettingsFormInput {
  const values = {} as SettingsFormInput;
  for (const key of EDITABLE) values[key] = settings[key] ?? '';
  return values;
}

/** PATCH semantics: only what changed is sent; an emptied field is sent as null. */
export function changedFields(
  settings: PartnerSettings,
  values: SettingsFormOutput,
): PartnerSettingsPatch {
  const patch: PartnerSettingsPatch = {};
  for (const key of EDITABLE) {
    const next = values[key] ?? null;
    if (next !== (settings[key] ?? null)) patch[key] = next;
  }
  return patch;
}

export const isEditable = (name: unknown): name is Editable =>
  typeof name === 'string' && (EDITABLE as readonly string[]).includes(name);
