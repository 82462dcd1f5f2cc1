import { Alert, Anchor, Button, Group, Stack, Text, TextInput, ThemeIcon } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { IconMailCheck, IconSend } from '@tabler/icons-react';
import { emailSchema } from '@telemedicina/shared/auth';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { z } from 'zod';
import { useApiErrorText } from '../../../lib/error-text';
import { applyServerFieldErrors, useFieldErrorText } from '../../../lib/form-errors';
import { useRequestPasswordReset } from '../api/forgot-password';
import { AuthPanel } from './AuthPanel';

const forgotSchema = z.object({ email: emailSchema });

/** `/forgot-password`: always ends on the same screen, so it never tells whether an account exists. */
export function ForgotPasswordPage() {
  const { t } = useTranslation();
  const errorText = useApiErrorText();
  const fieldErrorText = useFieldErrorText();
  const request = useRequestPasswordReset();
  const [failure, setFailure] = useState<unknown>(null);
  const form = useForm<z.input<typeof forgotSchema>, unknown, z.output<typeof forgotSchema>>({
    resolver: zodResolver(forgotSchema),
    defaultValues: { email: '' },
  });

  const handleSubmit = form.handleSubmit(async ({ email }) => {
    setFailure(null);
    try {
      await request.mutateAsync(email);
    } catch (error) {
      if (!applyServerFieldErrors(error, form.setError, ['email'])) {
        setFailure(error);
      }
    }
  });

  if (request.isSuccess) {
    return (
      <AuthPanel title={t('auth.forgot.sentTitle')} testId="forgot-password-sent">
        <Group wrap="nowrap" align="flex-start" gap="md">
          <ThemeIcon size={48} radius="xl" variant="light" aria-hidden>
            <IconMailCheck size={26} />
          </ThemeIcon>
          <Text>{t('auth.forgot.sent')}</Text>
        </Group>
        <Anchor component={Link} to="/" data-testid="forgot-password-signin">
          {t('auth.backToSignIn')}
        </Anchor>
      </AuthPanel>
    );
  }
  return (
    <AuthPanel
      title={t('auth.forgot.title')}
      description={t('auth.forgot.description')}
      testId="forgot-password-page"
    >
      <form onSubmit={(event) => void handleSubmit(event)} noValidate>
        <Stack gap="md">
          <TextInput
            {...form.register('email')}
            type="email"
            label={t('auth.fields.email')}
            autoComplete="email"
            inputMode="email"
            required
            error={fieldErrorText(form.formState.errors.email?.message)}
            data-testid="forgot-password-email"
          />
          {failure ? (
            <Alert color="red" variant="light" role="alert" data-testid="forgot-password-error">
              {errorText(failure)}
            </Alert>
          ) : null}
          <Button
            type="submit"
            size="md"
            loading={request.isPending}
            leftSection={<IconSend size={18} />}
            data-testid="forgot-password-submit"
          >
            {t('auth.forgot.submit')}
          </Button>
          <Anchor component={Link} to="/" size="sm" ta="center">
            {t('auth.backToSignIn')}
          </Anchor>
        </Stack>
      </form>
    </AuthPanel>
  );
}
