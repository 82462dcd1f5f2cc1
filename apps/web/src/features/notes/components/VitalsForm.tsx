import '@mantine/core/styles/NumberInput.layer.css';
import '@mantine/core/styles/Alert.layer.css';
import { Alert, Button, Group, NumberInput, Stack, Text } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import {
  reportVitalsRequestSchema,
  vitalNames,
  vitalRanges,
  type VitalName,
  type Vitals,
} from '@telemedicina/shared/notes';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useApiErrorText } from '../../../lib/error-text';
import { applyServerFieldErrors, useFieldErrorText } from '../../../lib/form-errors';
import { useLanguage } from '../../../lib/ui-state';
import { useReportVitals } from '../api/vitals';
import classes from './Notes.module.css';
import { numberFormat } from '../../../lib/intl-cache';

type VitalsFormValues = Record<VitalName, number | ''>;

function toFormValues(vitals: Vitals | null | undefined): VitalsFormValues {
  return Object.fromEntries(vitalNames.map((name) => [name, vitals?.[name] ?? ''])) as VitalsFormValues;
}

/** Empty fields are sent as null: the report replaces what was reported before. */
function toRequest(values: VitalsFormValues): Record<VitalName, number | null> {
  return Object.fromEntries(
    vitalNames.map((name) => {
      const value = values[name];
      return [name, value === '' || Number.isNaN(Number(value)) ? null : Number(value)];
    }),
  ) as Record<VitalName, number | null>;
}

export interface VitalsFormProps {
  appointmentId: string;
  /** What was reported before, to correct it. */
  initial: Vitals | null | undefined;
  onSaved?: () => void;
}

/**
 * The patient reports their measurements before or during the visit. Every field is optional;
 * ranges and the blood-pressure rule come from the shared schema the server applies too, and a
 * refusal from the server is shown beside the field it names.
 */
export function VitalsForm({ appointmentId, initial, onSaved }: VitalsFormProps) {
  const { t } = useTranslation();
  const language = useLanguage();
  const fieldText = useFieldErrorText();
  const errorText = useApiErrorText();
  const report = useReportVitals(appointmentId);
  const [formError, setFormError] = useState<string | null>(null);
  const [isSaved, setIsSaved] = useState(false);
  const form = useForm<VitalsFormValues>({ defaultValues: toFormValues(initial) });
  const decimalSeparator = language === 'es' ? ',' : '.';

  const handleSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    setIsSaved(false);
    const request = toRequest(values);
    const parsed = reportVitalsRequestSchema.safeParse(request);
    if (!parsed.success) {
      let isShown = false;
      for (const issue of parsed.error.issues) {
        const field = issue.path[0];
        if (typeof field === 'string' && (vitalNames as string[]).includes(field)) {
          form.setError(
            field as VitalName,
            { type: 'schema', message: issue.message },
            { shouldFocus: !isShown },
          );
          isShown = true;
        }
      }
      if (!isShown) {
        setFormError(fieldText(parsed.error.issues[0]?.message) ?? t('validation.invalid'));
      }
      return;
    }
    try {
      await report.mutateAsync(parsed.data);
      setIsSaved(true);
      onSaved?.();
    } catch (error) {
      if (!applyServerFieldErrors(error, form.setError, vitalNames)) {
        setFormError(errorText(error));
      }
    }
  });

  return (
    <form onSubmit={(event) => void handleSubmit(event)} noValidate data-testid="vitals-form">
      <Stack gap="sm">
        <Text size="sm" c="gray.7">
          {t('notes.vitals.formHint')}
        </Text>
        <div className={classes.vitalsForm}>
          {vitalNames.map((name) => {
            const range = vitalRanges[name];
            const isInteger = range.step === 1;
            return (
              <Controller
                key={name}
                control={form.control}
                name={name}
                render={({ field, fieldState }) => (
                  <NumberInput
                    label={t(`notes.vitals.fields.${name}`)}
                    description={t('notes.vitals.range', {
                      min: numberFormat(language).format(range.min),
                      max: numberFormat(language).format(range.max),
                      unit: t(`notes.vitals.units.${name}`),
                    })}
                    rightSection={
                      <Text size="xs" c="gray.7" pr={6}>
                        {t(`notes.vitals.units.${name}`)}
                      </Text>
                    }
                    rightSectionWidth={Math.max(48, t(`notes.vitals.units.${name}`).length * 8 + 20)}
                    min={range.min}
                    max={range.max}
                    step={range.step}
                    allowDecimal={!isInteger}
                    decimalScale={isInteger ? 0 : 1}
                    decimalSeparator={decimalSeparator}
                    allowNegative={false}
                    clampBehavior="none"
                    hideControls
                    inputMode={isInteger ? 'numeric' : 'decimal'}
                    name={field.name}
                    value={field.value}
                    onChange={(value) => {
                      setIsSaved(false);
                      field.onChange(typeof value === 'number' ? value : value === '' ? '' : Number(value));
                    }}
                    onBlur={field.onBlur}
                    ref={field.ref}
                    error={fieldText(fieldState.error?.message)}
                    data-testid={`vitals-${name}`}
                  />
                )}
              />
            );
          })}
        </div>
        {formError ? (
          <Alert color="red" variant="light" data-testid="vitals-form-error">
            {formError}
          </Alert>
        ) : null}
        <Group justify="flex-end" gap="sm">
          {isSaved ? (
            <Text size="sm" c="teal.9" data-testid="vitals-saved">
              <IconCheck size={14} style={{ verticalAlign: 'middle', marginInlineEnd: 4 }} />
              {t('notes.vitals.saved')}
            </Text>
          ) : null}
          <Button type="submit" loading={report.isPending} data-testid="vitals-submit">
            {t('notes.vitals.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
