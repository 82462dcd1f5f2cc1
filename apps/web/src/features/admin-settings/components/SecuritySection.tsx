import { Alert, Checkbox, Skeleton, Stack, Text } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { clinicSettingsSchema, type ClinicSettings } from '@telemedicina/shared/clinic-settings';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { useApiErrorText } from '../../../lib/error-text';
import { useFieldErrorText } from '../../../lib/form-errors';
import { useLanguage } from '../../../lib/ui-state';
import { useRoleOptions } from '../api/get-roles';
import { SettingsSectionCard } from './SettingsSectionCard';
import { useSectionSave } from './use-section-save';

const securityFormSchema = clinicSettingsSchema.shape.security;
type SecurityForm = z.infer<typeof securityFormSchema>;
const toValues = ({ security }: ClinicSettings): SecurityForm => ({
  mfaRequiredRoles: [...security.mfaRequiredRoles],
});

/** Which roles must use two-step verification (one checkbox per role of `GET /roles`). */
export function SecuritySection({ settings }: { settings: ClinicSettings }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const errorText = useApiErrorText();
  const fieldErrorText = useFieldErrorText();
  const roles = useRoleOptions();
  const form = useForm<SecurityForm>({
    resolver: zodResolver(securityFormSchema),
    defaultValues: toValues(settings),
  });
  const save = useSectionSave('security', form, (security) => ({ security }), toValues);

  return (
    <SettingsSectionCard
      section="security"
      title={t('clinicSettings.security.title')}
      description={t('clinicSettings.security.description')}
      {...save}
    >
      {roles.isPending ? (
        <Stack gap="xs" aria-busy="true">
          {[0, 1, 2, 3].map((index) => (
            <Skeleton key={index} height={24} radius="sm" />
          ))}
        </Stack>
      ) : roles.isError ? (
        <Alert color="red" variant="light" data-testid="settings-roles-error">
          {errorText(roles.error)}
        </Alert>
      ) : (
        <Controller
          control={form.control}
          name="mfaRequiredRoles"
          render={({ field, fieldState }) => (
            <Checkbox.Group
              label={t('clinicSettings.security.mfaRoles')}
              description={t('clinicSettings.security.mfaRolesHint')}
              value={field.value}
              onChange={field.onChange}
              error={fieldErrorText(fieldState.error?.message)}
              data-testid="settings-mfa-roles"
            >
              <Stack gap="sm" mt="sm">
                {roles.data.map((role) => (
                  <Checkbox
                    key={role.id}
                    value={role.key}
                    label={role.name[language]}
                    description={
                      <Text span size="xs" c="gray.7" ff="monospace">
                        {role.key}
                      </Text>
                    }
                    data-testid={`settings-mfa-role-${role.key}`}
                  />
                ))}
              </Stack>
            </Checkbox.Group>
          )}
        />
      )}
    </SettingsSectionCard>
  );
}
