import '@mantine/core/styles/Switch.layer.css';
import { Switch } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { clinicSettingsSchema, type ClinicSettings } from '@telemedicina/shared/clinic-settings';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { SettingsSectionCard } from './SettingsSectionCard';
import { useSectionSave, useSettingsErrorText } from './use-section-save';

const privacyFormSchema = clinicSettingsSchema.shape.privacy;
type PrivacyForm = z.infer<typeof privacyFormSchema>;
const toValues = ({ privacy }: ClinicSettings): PrivacyForm => ({ ...privacy });

/**
 * Minimum necessary: whether reception and administrators read the reason a patient gives for a
 * visit (off by default; the visit's doctor and patient always read it — the server decides).
 */
export function PrivacySection({ settings }: { settings: ClinicSettings }) {
  const { t } = useTranslation();
  const errorText = useSettingsErrorText();
  const form = useForm<PrivacyForm>({
    resolver: zodResolver(privacyFormSchema),
    defaultValues: toValues(settings),
  });
  const save = useSectionSave('privacy', form, (privacy) => ({ privacy }), toValues);
  const { errors } = form.formState;

  return (
    <SettingsSectionCard
      section="privacy"
      title={t('clinicSettings.privacy.title')}
      description={t('clinicSettings.privacy.description')}
      {...save}
    >
      <Controller
        control={form.control}
        name="canStaffReadVisitReasons"
        render={({ field }) => (
          <Switch
            label={t('clinicSettings.privacy.canStaffReadVisitReasons')}
            description={t('clinicSettings.privacy.canStaffReadVisitReasonsHint')}
            checked={field.value}
            onChange={(event) => field.onChange(event.currentTarget.checked)}
            onBlur={field.onBlur}
            ref={field.ref}
            error={errorText(errors.canStaffReadVisitReasons?.message)}
            data-testid="settings-staff-read-visit-reasons"
          />
        )}
      />
    </SettingsSectionCard>
  );
}
