import { Alert, Button, Group, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { IconCircleCheck, IconKey } from '@tabler/icons-react';
import { passwordSchema, type User } from '@telemedicina/shared/auth';
import { checkPassword } from '@telemedicina/shared/password-policy';
import { useId, useMemo, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { PasswordStrengthMeter } from '../../../components/password-strength/PasswordStrengthMeter';
import { ApiError, publishApiErrorAlert } from '../../../lib/api-client';
import { applyServerFieldErrors, passwordProblemKey, useFieldErrorText } from '../../../lib/form-errors';
import { useChangePassword } from '../api/change-password';
import classes from './Profile.module.css';

/** Current and new password (`POST /me/password`); other devices are signed out by the server. */
export function ChangePasswordCard({ user }: { user: Pick<User, 'email' | 'name'> }) {
  const { t } = useTranslation();
  const fieldErrorText = useFieldErrorText();
  const change = useChangePassword();
  const meterId = useId();
  const [isDone, setIsDone] = useState(false);
  const schema = useMemo(
    () =>
      z
        .object({ currentPassword: passwordSchema, newPassword: passwordSchema })
        .superRefine(({ newPassword }, context) => {
          const [problem] = checkPassword(newPassword, { email: user.email, name: user.name }).problems;
          if (problem && newPassword !== '') {
            context.addIssue({ code: 'custom', path: ['newPassword'], message: passwordProblemKey(problem) });
          }
        }),
    [user.email, user.name],
  );
  const form = useForm<z.input<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: { currentPassword: '', newPassword: '' },
  });
  const newPassword = useWatch({ control: form.control, name: 'newPassword' });
  const { errors } = form.formState;

  const handleSubmit = form.handleSubmit(async (values) => {
    setIsDone(false);
    try {
      await change.mutateAsync(values);
      form.reset();
      setIsDone(true);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'PASSWORD_INCORRECT') {
        form.setError(
          'currentPassword',
          { type: 'server', message: 'errors.codes.PASSWORD_INCORRECT' },
          { shouldFocus: true },
        );
        return;
      }
      if (!applyServerFieldErrors(error, form.setError, ['currentPassword', 'newPassword'], 'newPassword')) {
        publishApiErrorAlert(error);
      }
    }
  });

  return (
    <Paper withBorder radius="lg" className={classes.card} component="section" data-testid="profile-password">
      <form onSubmit={(event) => void handleSubmit(event)} noValidate>
        <Stack gap="md">
          <div>
            <Title order={2} size="h4">
              {t('profile.password.title')}
            </Title>
            <Text size="sm" c="gray.7" mt={4}>
              {t('profile.password.description')}
            </Text>
          </div>
          <PasswordInput
            {...form.register('currentPassword')}
            label={t('profile.password.current')}
            autoComplete="current-password"
            required
            error={fieldErrorText(errors.currentPassword?.message)}
            visibilityToggleButtonProps={{ 'aria-label': t('auth.fields.showPassword') }}
            data-testid="profile-password-current"
          />
          <div>
            <PasswordInput
              {...form.register('newPassword')}
              label={t('auth.fields.newPassword')}
              autoComplete="new-password"
              required
              aria-describedby={meterId}
              error={fieldErrorText(errors.newPassword?.message)}
              visibilityToggleButtonProps={{ 'aria-label': t('auth.fields.showPassword') }}
              data-testid="profile-password-new"
            />
            <PasswordStrengthMeter id={meterId} password={newPassword} personal={user} />
          </div>
          {isDone ? (
            <Alert
              color="teal"
              variant="light"
              icon={<IconCircleCheck />}
              role="status"
              data-testid="profile-password-done"
            >
              {t('profile.password.done')}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button
              type="submit"
              loading={change.isPending}
              leftSection={<IconKey size={18} />}
              data-testid="profile-password-submit"
            >
              {t('profile.password.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
