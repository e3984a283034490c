import type { FieldErrors, UseFormRegisterReturn } from 'react-hook-form';
import {
  ADDRESS_LINE_MAX,
  CITY_MAX,
  EMAIL_MAX,
  NAME_MAX,
  PHONE_MAX,
  SOURCE_ID_MAX,
} from '@shared/api';
import { US_STATES, isUsStateCode } from '@shared/us-states';
import { Field, SelectField } from '@renderer/components/Field';
import type { CustomerFormInput } from './editor-form';

export type CustomerField =
  | 'sourceId'
  | 'firstName'
  | 'lastName'
  | 'email'
  | 'phone'
  | 'address.line1'
  | 'address.line2'
  | 'address.city'
  | 'address.state'
  | 'address.zipCode';

interface Props {
  /** Registers one of the customer's fields with the form (the form keeps it under `customer`). */
  bind(name: CustomerField): UseFormRegisterReturn;
  errors: FieldErrors<CustomerFormInput> | undefined;
  /** Gives the inputs ids of their own when two fieldsets are on screen (the duplicate dialog). */
  idPrefix: string;
  /** The state the stored protocol has, shown as it is when it is not one of US_STATES. */
  storedState?: string | undefined;
}

/** The state's message for a list: the shared rule says what a code is, people pick a name. */
const stateError = (message: string | undefined, stored: string | undefined): string | undefined =>
  message === undefined
    ? undefined
    : stored && !isUsStateCode(stored)
      ? `"${stored}" is not a US state: choose the state from the list.`
      : 'Choose the state from the list.';

/** The patient and where the order goes, with the spec's limits (maxLength stops what is refused). */
export function CustomerFieldset({ bind, errors, idPrefix, storedState }: Props) {
  const id = (name: string) => `${idPrefix}-${name.replace('.', '-')}`;
  return (
    <>
      <fieldset className="form-group">
        <legend>Patient</legend>
        <div className="field-row">
          <Field
            id={id('firstName')}
            label="First name"
            autoComplete="off"
            maxLength={NAME_MAX}
            error={errors?.firstName?.message}
            {...bind('firstName')}
          />
          <Field
            id={id('lastName')}
            label="Last name"
            autoComplete="off"
            maxLength={NAME_MAX}
            error={errors?.lastName?.message}
            {...bind('lastName')}
          />
        </div>
        <div className="field-row field-row-3">
          <Field
            id={id('sourceId')}
            label="Patient ID"
            hint="The patient's ID in your clinic's records."
            autoComplete="off"
            spellCheck={false}
            maxLength={SOURCE_ID_MAX}
            error={errors?.sourceId?.message}
            {...bind('sourceId')}
          />
          <Field
            id={id('email')}
            label="Email (optional)"
            type="email"
            autoComplete="off"
            maxLength={EMAIL_MAX}
            error={errors?.email?.message}
            {...bind('email')}
          />
          <Field
            id={id('phone')}
            label="Phone (optional)"
            type="tel"
            autoComplete="off"
            maxLength={PHONE_MAX}
            error={errors?.phone?.message}
            {...bind('phone')}
          />
        </div>
      </fieldset>
      <fieldset className="form-group">
        <legend>Shipping address</legend>
        <Field
          id={id('address.line1')}
          label="Address line 1"
          autoComplete="off"
          maxLength={ADDRESS_LINE_MAX}
          error={errors?.address?.line1?.message}
          {...bind('address.line1')}
        />
        <Field
          id={id('address.line2')}
          label="Address line 2 (optional)"
          autoComplete="off"
          maxLength={ADDRESS_LINE_MAX}
          error={errors?.address?.line2?.message}
          {...bind('address.line2')}
        />
        <div className="field-row field-row-3">
          <Field
            id={id('address.city')}
            label="City"
            autoComplete="off"
            maxLength={CITY_MAX}
            error={errors?.address?.city?.message}
            {...bind('address.city')}
          />
          <SelectField
            id={id('address.state')}
            label="State"
            error={stateError(errors?.address?.state?.message, storedState)}
            {...bind('address.state')}
          >
            <option value="">Choose a state</option>
            {storedState && !isUsStateCode(storedState) && (
              <option value={storedState}>{storedState} (not a US state)</option>
            )}
            {US_STATES.map((s) => (
              <option key={s.code} value={s.code}>
                {s.name}
              </option>
            ))}
          </SelectField>
          <Field
            id={id('address.zipCode')}
            label="ZIP code"
            hint="5 digits."
            inputMode="numeric"
            autoComplete="off"
            maxLength={5}
            error={errors?.address?.zipCode?.message}
            {...bind('address.zipCode')}
          />
        </div>
      </fieldset>
    </>
  );
}
