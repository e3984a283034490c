import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { PartnerSettings } from '@shared/api';
import { Field, type FieldProps } from '@renderer/components/Field';
import { describeError } from '@renderer/lib/ipc';
import { useSettingsStore } from '@renderer/stores/settings-store';
import { ColorField } from './ColorField';
import {
  SettingsForm,
  changedFields,
  formValues,
  isEditable,
  type SettingsFormInput,
  type SettingsFormOutput,
} from './settings-form';
import { FormFooter, type FormFeedback } from '@renderer/components/FormFooter';

/** The partner's editable settings; Save sends only what changed. */
export function PartnerSettingsForm({ settings }: { settings: PartnerSettings }) {
  const update = useSettingsStore((s) => s.update);
  const {
    register,
    control,
    setValue,
    handleSubmit,
    reset,
    setError,
    setFocus,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<SettingsFormInput, unknown, SettingsFormOutput>({
    resolver: zodResolver(SettingsForm),
    defaultValues: formValues(settings),
    mode: 'onBlur',
  });
  const [feedback, setFeedback] = useState<FormFeedback | null>(null);

  useEffect(() => {
    // Dirty fields are only relative to the settings as last saved.
    reset(formValues(settings));
  }, [settings, reset]);

  const onSave = handleSubmit(async (values) => {
    setFeedback(null);
    const patch = changedFields(settings, values);
    if (Object.keys(patch).length === 0) {
      setFeedback({ kind: 'info', text: 'Nothing to save: no field was changed.' });
      return;
    }
    const result = await update(patch);
    if (result.ok) {
      setFeedback({ kind: 'success', text: 'Settings saved.' });
      return;
    }
    let placed = false;
    for (const fe of result.error.fieldErrors) {
      const name = fe.path[0];
      if (isEditable(name)) {
        setError(name, { type: 'server', message: fe.message });
        // The first field refused takes the focus Save lost while it was disabled.
        if (!placed) setFocus(name);
        placed = true;
      }
    }
    const { title, detail } = describeError(result.error);
    setFeedback({
      kind: 'error',
      text: placed
        ? 'Settings not saved: some fields need attention.'
        : `Settings not saved. ${title}`,
      detail: placed ? null : detail,
    });
  });

  const text = (
    name: Exclude<keyof SettingsFormInput, 'primaryColor' | 'secondaryColor'>,
    label: string,
    extra: Partial<FieldProps> = {},
  ) => (
    <Field
      label={label}
      error={errors[name]?.message}
      autoComplete="off"
      {...extra}
      {...register(name)}
    />
  );

  return (
    <form className="form" onSubmit={onSave} noValidate aria-labelledby="partner-settings-heading">
      <h2 id="partner-settings-heading">Partner settings</h2>
      <fieldset className="form-group">
        <legend>Brand</legend>
        <div className="field-row">
          <ColorField
            name="primaryColor"
            label="Primary color"
            error={errors.primaryColor?.message}
            control={control}
            register={register}
            setValue={setValue}
          />
          <ColorField
            name="secondaryColor"
            label="Secondary color"
            error={errors.secondaryColor?.message}
            control={control}
            register={register}
            setValue={setValue}
          />
        </div>
        {text('logo', 'Logo URL', { type: 'url', placeholder: 'https://clinic.example/logo.png' })}
      </fieldset>
      <fieldset className="form-group">
        <legend>Contact</legend>
        <div className="field-row">
          {text('phone', 'Phone', { type: 'tel', autoComplete: 'tel' })}
          {text('supportEmail', 'Support email', {
            type: 'email',
            placeholder: 'support@clinic.example',
          })}
        </div>
        {text('website', 'Website', { type: 'url', placeholder: 'https://clinic.example' })}
      </fieldset>
      <fieldset className="form-group">
        <legend>Webhooks</legend>
        {text('webhookUrl', 'Webhook URL', {
          type: 'url',
          placeholder: 'https://clinic.example/webhooks/orders',
          hint: 'Receives order status changes. Leave empty to turn webhooks off.',
        })}
      </fieldset>
      <fieldset className="form-group">
        <legend>Billing address</legend>
        {text('billingAddressLine1', 'Address line 1')}
        {text('billingAddressLine2', 'Address line 2')}
        <div className="field-row field-row-3">
          {text('billingCity', 'City')}
          {text('billingState', 'State or region')}
          {text('billingPostalCode', 'Postal code')}
        </div>
        {text('billingCountry', 'Country')}
      </fieldset>
      <FormFooter
        feedback={feedback}
        dirty={isDirty}
        submitting={isSubmitting}
        onDiscard={() => {
          reset(formValues(settings));
          setFeedback(null);
        }}
      />
    </form>
  );
}
