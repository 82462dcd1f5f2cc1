import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/Input.layer.css';
import { Alert, Button, Group, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { IconAlertCircle, IconUserPlus } from '@tabler/icons-react';
import { registerPatientRequestSchema, type PatientMatch } from '@telemedicina/shared/reception';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { LanguageSelect } from '../../../components/form-fields';
import { ApiError } from '../../../lib/api-client';
import { useApiErrorText } from '../../../lib/error-text';
import { applyServerFieldErrors, useFieldErrorText } from '../../../lib/form-errors';
import { useLanguage } from '../../../lib/ui-state';
import { useRegisterPatient } from '../api/register-patient';

type RegisterPatientInput = z.input<typeof registerPatientRequestSchema>;
type RegisterPatientOutput = z.output<typeof registerPatientRequestSchema>;

const fields = ['name', 'email', 'phone', 'dateOfBirth', 'language'] as const;

/**
 * Registering a patient who calls or walks in: what reception asks for on the phone. The account
 * is created at once and the patient receives the invitation email, with which they set their own
 * password; reception books them straight away.
 */
export function RegisterPatientForm({
  onRegistered,
  onCancel,
}: {
  onRegistered: (patient: PatientMatch) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const language = useLanguage();
  const errorText = useApiErrorText();
  const fieldErrorText = useFieldErrorText();
  const register = useRegisterPatient();
  const [failure, setFailure] = useState<unknown>(null);
  const today = new Date().toISOString().slice(0, 10);
  const form = useForm<RegisterPatientInput, unknown, RegisterPatientOutput>({
    resolver: zodResolver(registerPatientRequestSchema),
    defaultValues: {
      name: '',
      email: '',
      phone: '',
      dateOfBirth: '',
      language: language === 'en' ? 'en' : 'es',
    },
  });
  const { errors } = form.formState;
  // The form replaces the search inside the open dialog: the cursor goes to its first field.
  useEffect(() => form.setFocus('name'), [form]);

  const handleSubmit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      onRegistered(await register.mutateAsync(values));
    } catch (error) {
      if (error instanceof ApiError && error.code === 'CONFLICT') {
        form.setError(
          'email',
          { type: 'server', message: 'agenda.register.emailTaken' },
          { shouldFocus: true },
        );
        return;
      }
      if (!applyServerFieldErrors(error, form.setError, fields)) {
        setFailure(error);
      }
    }
  });

  return (
    <form onSubmit={(event) => void handleSubmit(event)} noValidate data-testid="register-patient-form">
      <Stack gap="md">
        <Text size="sm" c="gray.7">
          {t('agenda.register.description')}
        </Text>
        <TextInput
          {...form.register('name')}
          label={t('agenda.register.name')}
          autoComplete="off"
          required
          error={fieldErrorText(errors.name?.message)}
          data-testid="register-patient-name"
        />
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
          <TextInput
            {...form.register('phone')}
            type="tel"
            inputMode="tel"
            label={t('agenda.register.phone')}
            autoComplete="off"
            required
            error={fieldErrorText(errors.phone?.message)}
            data-testid="register-patient-phone"
          />
          <TextInput
            {...form.register('dateOfBirth')}
            type="date"
            label={t('agenda.register.dateOfBirth')}
            min="1900-01-01"
            max={today}
            required
            error={fieldErrorText(errors.dateOfBirth?.message)}
            data-testid="register-patient-date-of-birth"
          />
        </SimpleGrid>
        <TextInput
          {...form.register('email')}
          type="email"
          inputMode="email"
          label={t('agenda.register.email')}
          description={t('agenda.register.emailHint')}
          autoComplete="off"
          required
          error={fieldErrorText(errors.email?.message)}
          data-testid="register-patient-email"
        />
        <LanguageSelect
          {...form.register('language')}
          label={t('agenda.register.language')}
          description={t('agenda.register.languageHint')}
          error={fieldErrorText(errors.language?.message)}
          data-testid="register-patient-language"
        />
        {failure ? (
          <Alert
            color="red"
            variant="light"
            icon={<IconAlertCircle />}
            role="alert"
            data-testid="register-patient-error"
          >
            {errorText(failure)}
          </Alert>
        ) : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={register.isPending}>
            {t('agenda.register.back')}
          </Button>
          <Button
            type="submit"
            loading={register.isPending}
            leftSection={<IconUserPlus size={18} />}
            data-testid="register-patient-submit"
          >
            {t('agenda.register.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
