import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/SimpleGrid.layer.css';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, Paper, SimpleGrid, Stack, TextInput, Title } from '@mantine/core';
import { IconCircleCheck, IconDeviceFloppy } from '@tabler/icons-react';
import type { AdminUser } from '@telemedicina/shared/admin';
import { personNameSchema, phoneSchema } from '@telemedicina/shared/auth';
import { languageSchema, timeZoneSchema } from '@telemedicina/shared/common';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { LanguageSelect, TimeZoneSelect } from '../../../components/form-fields';
import { publishApiErrorAlert } from '../../../lib/api-client';
import { applyServerFieldErrors, useFieldErrorText } from '../../../lib/form-errors';
import { useUpdateUser } from '../api/update-user';
import classes from './Users.module.css';

const editSchema = z.object({
  name: personNameSchema,
  phone: z.union([z.literal(''), phoneSchema]),
  language: languageSchema,
  timeZone: timeZoneSchema,
});
type EditInput = z.input<typeof editSchema>;
type EditOutput = z.output<typeof editSchema>;

const fields = ['name', 'phone', 'language', 'timeZone'] as const;

function valuesOf(user: AdminUser): EditInput {
  return { name: user.name, phone: user.phone ?? '', language: user.language, timeZone: user.timeZone };
}

/** Name, phone, language and time zone of someone else's account (`PATCH /users/:id`). */
export function UserEditForm({ user, isReadOnly }: { user: AdminUser; isReadOnly: boolean }) {
  const { t } = useTranslation();
  const fieldErrorText = useFieldErrorText();
  const update = useUpdateUser(user.id);
  const [isSaved, setIsSaved] = useState(false);
  const form = useForm<EditInput, unknown, EditOutput>({
    resolver: zodResolver(editSchema),
    defaultValues: valuesOf(user),
  });
  const { errors, isDirty } = form.formState;

  const handleSubmit = form.handleSubmit(async (values) => {
    setIsSaved(false);
    try {
      const updated = await update.mutateAsync({
        ...values,
        phone: values.phone === '' ? null : values.phone,
      });
      form.reset(valuesOf(updated));
      setIsSaved(true);
    } catch (error) {
      if (!applyServerFieldErrors(error, form.setError, fields)) {
        publishApiErrorAlert(error);
      }
    }
  });

  return (
    <Paper withBorder radius="lg" className={classes.card} data-testid="user-edit">
      <form onSubmit={(event) => void handleSubmit(event)} noValidate>
        <fieldset disabled={isReadOnly} className={classes.fieldset}>
          <Stack gap="md">
            <Title order={2} size="h4">
              {t('users.edit.title')}
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
              <TextInput
                {...form.register('name')}
                label={t('auth.fields.name')}
                required
                error={fieldErrorText(errors.name?.message)}
                data-testid="user-edit-name"
              />
              <TextInput
                {...form.register('phone')}
                type="tel"
                label={t('auth.fields.phone')}
                inputMode="tel"
                error={fieldErrorText(errors.phone?.message)}
                data-testid="user-edit-phone"
              />
              <LanguageSelect
                {...form.register('language')}
                error={fieldErrorText(errors.language?.message)}
                data-testid="user-edit-language"
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
                    disabled={isReadOnly}
                    error={fieldErrorText(errors.timeZone?.message)}
                    data-testid="user-edit-timezone"
                  />
                )}
              />
            </SimpleGrid>
            {isSaved && !isDirty ? (
              <Alert
                color="teal"
                variant="light"
                icon={<IconCircleCheck />}
                role="status"
                data-testid="user-edit-saved"
              >
                {t('users.edit.saved')}
              </Alert>
            ) : null}
            {isReadOnly ? null : (
              <Group justify="flex-end">
                <Button
                  type="submit"
                  loading={update.isPending}
                  disabled={!isDirty}
                  leftSection={<IconDeviceFloppy size={18} />}
                  data-testid="user-edit-save"
                >
                  {t('common.save')}
                </Button>
              </Group>
            )}
          </Stack>
        </fieldset>
      </form>
    </Paper>
  );
}
