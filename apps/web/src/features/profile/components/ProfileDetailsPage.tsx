import { Alert, Badge, Button, Group, Paper, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { IconCircleCheck, IconDeviceFloppy } from '@tabler/icons-react';
import { personNameSchema, phoneSchema, type MeResponse } from '@telemedicina/shared/auth';
import { languageSchema, timeZoneSchema } from '@telemedicina/shared/common';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { publishApiErrorAlert } from '../../../lib/api-client';
import { applyServerFieldErrors, useFieldErrorText } from '../../../lib/form-errors';
import { useMe } from '../../../lib/session';
import { LanguageSelect, TimeZoneSelect } from '../../../components/form-fields';
import { uiState, useLanguage } from '../../../lib/ui-state';
import { useUpdateProfile } from '../api/update-profile';
import classes from './Profile.module.css';

const detailsSchema = z.object({
  name: personNameSchema,
  phone: z.union([z.literal(''), phoneSchema]),
  language: languageSchema,
  timeZone: timeZoneSchema,
});

/** Name, phone, language and time zone (`PATCH /me`). */
export function ProfileDetailsPage() {
  const me = useMe().data;
  return me ? <DetailsForm key={me.user.id} me={me} /> : null;
}

function DetailsForm({ me }: { me: MeResponse }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const fieldErrorText = useFieldErrorText();
  const update = useUpdateProfile();
  const [isSaved, setIsSaved] = useState(false);
  const { user } = me;
  const form = useForm<z.input<typeof detailsSchema>, unknown, z.output<typeof detailsSchema>>({
    resolver: zodResolver(detailsSchema),
    defaultValues: {
      name: user.name,
      phone: user.phone ?? '',
      language: user.language,
      timeZone: user.timeZone,
    },
  });
  const { errors } = form.formState;

  const handleSubmit = form.handleSubmit(async (values) => {
    setIsSaved(false);
    try {
      const updated = await update.mutateAsync({
        ...values,
        phone: values.phone === '' ? null : values.phone,
      });
      form.reset({
        name: updated.user.name,
        phone: updated.user.phone ?? '',
        language: updated.user.language,
        timeZone: updated.user.timeZone,
      });
      if (updated.user.language !== uiState.getState().language) {
        uiState.getState().setLanguage(updated.user.language);
      }
      setIsSaved(true);
    } catch (error) {
      if (!applyServerFieldErrors(error, form.setError, ['name', 'phone', 'language', 'timeZone'])) {
        publishApiErrorAlert(error);
      }
    }
  });

  return (
    <Paper withBorder radius="lg" className={classes.card} data-testid="profile-details">
      <form onSubmit={(event) => void handleSubmit(event)} noValidate>
        <Stack gap="md">
          <Stack gap={2}>
            <Text size="sm" c="gray.7">
              {t('auth.fields.email')}
            </Text>
            <Text fw={650} data-testid="profile-email">
              {user.email}
            </Text>
            {me.roles.length > 0 ? (
              <Group gap={6} mt={4} aria-label={t('profile.details.roles')}>
                {me.roles.map((role) => (
                  <Badge key={role.id} variant="light" tt="none">
                    {role.name[language]}
                  </Badge>
                ))}
              </Group>
            ) : null}
          </Stack>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <TextInput
              {...form.register('name')}
              label={t('auth.fields.name')}
              autoComplete="name"
              required
              error={fieldErrorText(errors.name?.message)}
              data-testid="profile-name"
            />
            <TextInput
              {...form.register('phone')}
              type="tel"
              label={t('auth.fields.phone')}
              description={t('auth.fields.phoneHint')}
              autoComplete="tel"
              inputMode="tel"
              error={fieldErrorText(errors.phone?.message)}
              data-testid="profile-phone"
            />
            <LanguageSelect
              {...form.register('language')}
              description={t('profile.details.languageHint')}
              error={fieldErrorText(errors.language?.message)}
              data-testid="profile-language"
            />
            <Controller
              control={form.control}
              name="timeZone"
              render={({ field }) => (
                <TimeZoneSelect
                  value={field.value}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  ref={field.ref}
                  description={t('profile.details.timeZoneHint')}
                  error={fieldErrorText(errors.timeZone?.message)}
                  data-testid="profile-timezone"
                />
              )}
            />
          </SimpleGrid>
          {isSaved ? (
            <Alert
              color="teal"
              variant="light"
              icon={<IconCircleCheck />}
              role="status"
              data-testid="profile-details-saved"
            >
              {t('profile.details.saved')}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button
              type="submit"
              loading={update.isPending}
              leftSection={<IconDeviceFloppy size={18} />}
              data-testid="profile-details-save"
            >
              {t('common.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
