import { Alert, Anchor, Button, PasswordInput, Stack, Text } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { IconCircleCheck, IconKey, IconLogin2 } from '@tabler/icons-react';
import { passwordSchema } from '@telemedicina/shared/auth';
import { checkPassword } from '@telemedicina/shared/password-policy';
import { useId, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { z } from 'zod';
import { PasswordStrengthMeter } from '../../../components/password-strength/PasswordStrengthMeter';
import { ApiError } from '../../../lib/api-client';
import { useApiErrorText } from '../../../lib/error-text';
import { applyServerFieldErrors, passwordProblemKey, useFieldErrorText } from '../../../lib/form-errors';
import { useResetPassword } from '../api/reset-password';
import { AuthPanel } from './AuthPanel';

const resetFormSchema = z.object({ password: passwordSchema }).superRefine(({ password }, context) => {
  const [problem] = checkPassword(password).problems;
  if (problem && password !== '') {
    context.addIssue({ code: 'custom', path: ['password'], message: passwordProblemKey(problem) });
  }
});

/** `/reset-password?token=`: a new password (with the meter) from the emailed single-use link. */
export function ResetPasswordPage() {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token') ?? '';
  const [state, setState] = useState<'form' | 'done' | 'invalid'>(token === '' ? 'invalid' : 'form');

  if (state === 'done') {
    return (
      <AuthPanel title={t('auth.reset.doneTitle')} testId="reset-password-done">
        <Alert color="teal" variant="light" icon={<IconCircleCheck />} role="status">
          {t('auth.reset.done')}
        </Alert>
        <Button
          component={Link}
          to="/"
          size="md"
          leftSection={<IconLogin2 size={18} />}
          data-testid="reset-password-signin"
        >
          {t('auth.goToSignIn')}
        </Button>
      </AuthPanel>
    );
  }
  if (state === 'invalid') {
    return (
      <AuthPanel title={t('auth.reset.invalidTitle')} testId="reset-password-invalid">
        <Text size="sm">{t('auth.reset.invalid')}</Text>
        <Button
          component={Link}
          to="/forgot-password"
          variant="light"
          data-testid="reset-password-request-new"
        >
          {t('auth.reset.requestNew')}
        </Button>
      </AuthPanel>
    );
  }
  return (
    <ResetPasswordForm token={token} onDone={() => setState('done')} onInvalid={() => setState('invalid')} />
  );
}

function ResetPasswordForm({
  token,
  onDone,
  onInvalid,
}: {
  token: string;
  onDone: () => void;
  onInvalid: () => void;
}) {
  const { t } = useTranslation();
  const errorText = useApiErrorText();
  const fieldErrorText = useFieldErrorText();
  const reset = useResetPassword();
  const meterId = useId();
  const [failure, setFailure] = useState<unknown>(null);
  const form = useForm<z.input<typeof resetFormSchema>>({
    resolver: zodResolver(resetFormSchema),
    defaultValues: { password: '' },
  });
  const password = useWatch({ control: form.control, name: 'password' });

  const handleSubmit = form.handleSubmit(async ({ password: newPassword }) => {
    setFailure(null);
    try {
      await reset.mutateAsync({ token, password: newPassword });
      onDone();
    } catch (error) {
      if (
        error instanceof ApiError &&
        (error.code === 'TOKEN_INVALID' || (error.code === 'VALIDATION_FAILED' && error.fieldErrors?.token))
      ) {
        onInvalid();
        return;
      }
      if (!applyServerFieldErrors(error, form.setError, ['password'], 'password')) {
        setFailure(error);
      }
    }
  });

  return (
    <AuthPanel
      title={t('auth.reset.title')}
      description={t('auth.reset.description')}
      testId="reset-password-page"
    >
      <form onSubmit={(event) => void handleSubmit(event)} noValidate>
        <Stack gap="md">
          <div>
            <PasswordInput
              {...form.register('password')}
              label={t('auth.fields.newPassword')}
              autoComplete="new-password"
              required
              aria-describedby={meterId}
              error={fieldErrorText(form.formState.errors.password?.message)}
              visibilityToggleButtonProps={{ 'aria-label': t('auth.fields.showPassword') }}
              data-testid="reset-password-password"
            />
            <PasswordStrengthMeter id={meterId} password={password} />
          </div>
          {failure ? (
            <Alert color="red" variant="light" role="alert" data-testid="reset-password-error">
              {errorText(failure)}
            </Alert>
          ) : null}
          <Button
            type="submit"
            size="md"
            loading={reset.isPending}
            leftSection={<IconKey size={18} />}
            data-testid="reset-password-submit"
          >
            {t('auth.reset.submit')}
          </Button>
          <Anchor component={Link} to="/" size="sm" ta="center">
            {t('auth.backToSignIn')}
          </Anchor>
        </Stack>
      </form>
    </AuthPanel>
  );
}
