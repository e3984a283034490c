import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { RetentionYears } from '@shared/activity-views';
import { Field } from '@renderer/components/Field';
import { FormFooter, type FormFeedback } from '@renderer/components/FormFooter';
import { describeError } from '@renderer/lib/ipc';
import { useAppStore } from '@renderer/stores/app-store';
import { useStaffStore } from '@renderer/stores/staff-store';

const RetentionForm = z.object({ years: z.coerce.number<string>().pipe(RetentionYears) });
type RetentionFormInput = z.input<typeof RetentionForm>;
type RetentionFormOutput = z.output<typeof RetentionForm>;

/** How long the activity record keeps its entries (six years unless changed). */
export function RetentionSection() {
  const years = useAppStore((s) => s.retentionYears);
  const setRetention = useStaffStore((s) => s.setRetention);
  const [feedback, setFeedback] = useState<FormFeedback | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<RetentionFormInput, unknown, RetentionFormOutput>({
    resolver: zodResolver(RetentionForm),
    defaultValues: { years: String(years) },
  });
  useEffect(() => reset({ years: String(years) }), [years, reset]);
  const onSave = handleSubmit(async (values) => {
    setFeedback(null);
    const result = await setRetention(values.years);
    if (result.ok) {
      setFeedback({ kind: 'success', text: `Activity entries are kept ${values.years} years.` });
      return;
    }
    const { title, detail } = describeError(result.error);
    setFeedback({ kind: 'error', text: `Not saved. ${title}`, detail });
  });
  return (
    <section className="card" aria-labelledby="retention-heading">
      <h2 id="retention-heading">Activity record</h2>
      <form className="form" onSubmit={onSave} noValidate aria-label="Activity record retention">
        <Field
          label="Keep entries for (years)"
          type="number"
          inputMode="numeric"
          min={1}
          max={100}
          className="retention-field"
          error={errors.years?.message}
          hint="HIPAA asks a clinic to keep its documentation six years, the default. Older entries are removed when the connection is opened and once a day, and the record says how many."
          {...register('years')}
        />
        <FormFooter
          feedback={feedback}
          dirty={isDirty}
          submitting={isSubmitting}
          onDiscard={() => reset({ years: String(years) })}
          saveLabel="Save"
        />
      </form>
    </section>
  );
}
