import { NumberInput, SimpleGrid } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { clinicSettingsSchema, type ClinicSettings } from '@telemedicina/shared/clinic-settings';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { useFieldErrorText } from '../../../lib/form-errors';
import { SettingsSectionCard } from './SettingsSectionCard';
import { useSectionSave } from './use-section-save';

const sessionsFormSchema = clinicSettingsSchema.shape.sessions;
type SessionsForm = z.infer<typeof sessionsFormSchema>;
const toValues = ({ sessions }: ClinicSettings): SessionsForm => ({ ...sessions });

/** Minutes without activity before a session ends, for staff and for patients. */
export function SessionsSection({ settings }: { settings: ClinicSettings }) {
  const { t } = useTranslation();
  const fieldErrorText = useFieldErrorText();
  const form = useForm<SessionsForm>({
    resolver: zodResolver(sessionsFormSchema),
    defaultValues: toValues(settings),
  });
  const save = useSectionSave('sessions', form, (sessions) => ({ sessions }), toValues);
  const { errors } = form.formState;
  const fields = [
    { name: 'idleMinutesStaff', testId: 'settings-idle-staff' },
    { name: 'idleMinutesPatient', testId: 'settings-idle-patient' },
  ] as const;

  return (
    <SettingsSectionCard
      section="sessions"
      title={t('clinicSettings.sessions.title')}
      description={t('clinicSettings.sessions.description')}
      {...save}
    >
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        {fields.map(({ name, testId }) => (
          <Controller
            key={name}
            control={form.control}
            name={name}
            render={({ field }) => (
              <NumberInput
                label={t(`clinicSettings.sessions.${name}`)}
                description={t(`clinicSettings.sessions.${name}Hint`)}
                suffix={` ${t('clinicSettings.units.minutesShort')}`}
                min={1}
                max={1440}
                allowDecimal={false}
                allowNegative={false}
                value={field.value}
                onChange={(value) => field.onChange(value === '' ? undefined : value)}
                onBlur={field.onBlur}
                ref={field.ref}
                error={fieldErrorText(errors[name]?.message)}
                data-testid={testId}
              />
            )}
          />
        ))}
      </SimpleGrid>
    </SettingsSectionCard>
  );
}
