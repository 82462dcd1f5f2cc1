import { SimpleGrid, Stack, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { clinicSettingsSchema, type ClinicSettings } from '@telemedicina/shared/clinic-settings';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { LanguageSelect, TimeZoneSelect } from '../../../components/form-fields';
import { useFieldErrorText } from '../../../lib/form-errors';
import { LogoField } from './LogoField';
import { SettingsSectionCard } from './SettingsSectionCard';
import { useSectionSave } from './use-section-save';

const clinicFormSchema = clinicSettingsSchema.shape.clinic.omit({ logoUrl: true });
type ClinicForm = z.infer<typeof clinicFormSchema>;

const toValues = ({ clinic }: ClinicSettings): ClinicForm => ({
  name: clinic.name,
  timeZone: clinic.timeZone,
  language: clinic.language,
});

/** Name, logo, default time zone and language of the clinic. */
export function ClinicSection({ settings }: { settings: ClinicSettings }) {
  const { t } = useTranslation();
  const fieldErrorText = useFieldErrorText();
  const form = useForm<ClinicForm>({
    resolver: zodResolver(clinicFormSchema),
    defaultValues: toValues(settings),
  });
  const save = useSectionSave('clinic', form, (clinic) => ({ clinic }), toValues);
  const { errors } = form.formState;

  return (
    <SettingsSectionCard
      section="clinic"
      title={t('clinicSettings.clinic.title')}
      description={t('clinicSettings.clinic.description')}
      {...save}
    >
      <Stack gap="md">
        <TextInput
          {...form.register('name')}
          label={t('clinicSettings.clinic.name')}
          description={t('clinicSettings.clinic.nameHint')}
          required
          maxLength={120}
          error={fieldErrorText(errors.name?.message)}
          data-testid="settings-clinic-name"
        />
        <LogoField logoUrl={settings.clinic.logoUrl} clinicName={settings.clinic.name} />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <Controller
            control={form.control}
            name="timeZone"
            render={({ field }) => (
              <TimeZoneSelect
                label={t('clinicSettings.clinic.timeZone')}
                description={t('clinicSettings.clinic.timeZoneHint')}
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                ref={field.ref}
                error={fieldErrorText(errors.timeZone?.message)}
                data-testid="settings-clinic-timezone"
              />
            )}
          />
          <LanguageSelect
            {...form.register('language')}
            label={t('clinicSettings.clinic.language')}
            description={t('clinicSettings.clinic.languageHint')}
            error={fieldErrorText(errors.language?.message)}
            data-testid="settings-clinic-language"
          />
        </SimpleGrid>
      </Stack>
    </SettingsSectionCard>
  );
}
