import {
  useWatch,
  type Control,
  type UseFormRegister,
  type UseFormSetValue,
} from 'react-hook-form';
import { HEX_COLOR_PATTERN } from '@shared/api';
import { Field } from '@renderer/components/Field';
import type { SettingsFormInput, SettingsFormOutput } from './settings-form';

type ColorName = 'primaryColor' | 'secondaryColor';

/** "#abc" -> "#aabbcc": the native color picker only takes the six-digit form. */
const sixDigits = (hex: string) =>
  hex.length === 4 ? `#${[...hex.slice(1)].map((c) => c + c).join('')}` : hex;

interface Props {
  name: ColorName;
  label: string;
  error: string | undefined;
  control: Control<SettingsFormInput, unknown, SettingsFormOutput>;
  register: UseFormRegister<SettingsFormInput>;
  setValue: UseFormSetValue<SettingsFormInput>;
}

/** A hex color typed or picked, with a swatch of the color as it is. */
export function ColorField({ name, label, error, control, register, setValue }: Props) {
  const value = useWatch({ control, name }) ?? '';
  const valid = HEX_COLOR_PATTERN.test(value.trim());
  const swatch = (
    <span className="color-tools">
      <span
        className={`swatch ${valid ? '' : 'swatch-empty'}`}
        style={valid ? { backgroundColor: value.trim() } : undefined}
        aria-hidden="true"
      />
      <input
        type="color"
        className="color-picker"
        aria-label={`Pick ${label.toLowerCase()}`}
        value={valid ? sixDigits(value.trim()).toLowerCase() : '#000000'}
        onChange={(e) =>
          setValue(name, e.target.value, { shouldDirty: true, shouldValidate: true })
        }
      />
    </span>
  );
  return (
    <Field
      label={label}
      placeholder="#1a7f64"
      spellCheck={false}
      autoComplete="off"
      error={error}
      addon={swatch}
      hint="Hex color: # and 3 or 6 hex digits."
      {...register(name)}
    />
  );
}
