import { Alert, Anchor, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  IconAlertCircle,
  IconArrowLeft,
  IconInfoCircle,
  IconLogin2,
  IconMailForward,
} from '@tabler/icons-react';
import {
  emailSchema,
  passwordSchema,
  recoveryCodeSchema,
  totpCodeSchema,
  type LoginRequest,
} from '@telemedicina/shared';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useSearchParams } from 'react-router';
import { z } from 'zod';
import { DelayedLoader } from '../../../components/delayed-loader/DelayedLoader';
import { ApiError } from '../../../lib/api-client';
import { useApiErrorText } from '../../../lib/error-text';
import { applyServerFieldErrors, useFieldErrorText } from '../../../lib/form-errors';
import { defaultSignedInPath, mfaEnrollmentPath, sanitizeReturnTo } from '../../../lib/return-to';
import { useMe } from '../../../lib/session';
import { sessionState, type SessionEndReason } from '../../../lib/session-state';
import { useResendVerification } from '../api/resend-verification';
import { useSignIn } from '../api/sign-in';
import { AuthPanel } from './AuthPanel';

const credentialsSchema = z.object({ email: emailSchema, password: passwordSchema });
type Credentials = z.input<typeof credentialsSchema>;

interface SecondFactor {
  code: string;
}

/**
 * `/`: sign in. A signed-in visitor goes straight on (to the return path or the admin area). After
 * a 401 MFA_REQUIRED the same credentials are sent again with the authenticator code or a
 * recovery code.
 */
export function SignInPage() {
  const me = useMe();
  const [searchParams] = useSearchParams();
  const returnTo = sanitizeReturnTo(searchParams.get('returnTo'));
  // The notice of how the last session ended is read once, then cleared.
  const [notice] = useState<SessionEndReason | null>(() => sessionState.getState().endReason);
  useEffect(() => {
    sessionState.getState().clearEndReason();
  }, []);

  if (me.data) {
    const target = me.data.session.mfaEnrollmentRequired
      ? mfaEnrollmentPath
      : (returnTo ?? defaultSignedInPath);
    return <Navigate to={target} replace />;
  }
  if (me.isPending) {
    // About the form's height: on phones the presentation sits below the card, and a card that
    // grew when the form arrived pushed it down (Lighthouse CLS 0.13).
    return <DelayedLoader minHeight={360} />;
  }
  return <SignInForm notice={notice} />;
}

type Step = { kind: 'credentials' } | { kind: 'secondFactor'; credentials: LoginRequest };

function SignInForm({ notice }: { notice: SessionEndReason | null }) {
  const { t } = useTranslation();
  const [step, setStep] = useState<Step>({ kind: 'credentials' });
  const signIn = useSignIn();

  return step.kind === 'credentials' ? (
    <CredentialsStep
      notice={notice}
      signIn={signIn}
      onSecondFactorRequired={(credentials) => setStep({ kind: 'secondFactor', credentials })}
    />
  ) : (
    <AuthPanel
      title={t('auth.signIn.mfa.title')}
      description={t('auth.signIn.mfa.description')}
      testId="signin-mfa-step"
    >
      <SecondFactorStep
        credentials={step.credentials}
        signIn={signIn}
        onBack={() => setStep({ kind: 'credentials' })}
      />
    </AuthPanel>
  );
}

type SignInMutation = ReturnType<typeof useSignIn>;

function CredentialsStep({
  notice,
  signIn,
  onSecondFactorRequired,
}: {
  notice: SessionEndReason | null;
  signIn: SignInMutation;
  onSecondFactorRequired: (credentials: LoginRequest) => void;
}) {
  const { t } = useTranslation();
  const errorText = useApiErrorText();
  const fieldErrorText = useFieldErrorText();
  const resend = useResendVerification();
  const [failure, setFailure] = useState<ApiError | Error | null>(null);
  const [unverifiedEmail, setUnverifiedEmail] = useState<string | null>(null);
  const form = useForm<Credentials>({
    resolver: zodResolver(credentialsSchema),
    defaultValues: { email: '', password: '' },
  });
  const { errors } = form.formState;

  const handleSubmit = form.handleSubmit(async (values) => {
    setFailure(null);
    setUnverifiedEmail(null);
    resend.reset();
    const credentials = credentialsSchema.parse(values);
    try {
      await signIn.mutateAsync(credentials);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'MFA_REQUIRED') {
        onSecondFactorRequired(credentials);
        return;
      }
      if (applyServerFieldErrors(error, form.setError, ['email', 'password'])) {
        return;
      }
      if (error instanceof ApiError && error.code === 'EMAIL_NOT_VERIFIED') {
        setUnverifiedEmail(credentials.email);
      }
      if (error instanceof ApiError && error.code === 'INVALID_CREDENTIALS') {
        form.setValue('password', '');
        form.setFocus('password');
      }
      setFailure(error instanceof Error ? error : new Error(String(error)));
    }
  });

  return (
    <AuthPanel title={t('auth.signIn.title')} description={t('auth.signIn.description')} testId="signin-page">
      {notice === 'idle' || notice === 'expired' || notice === 'signedOut' ? (
        <Alert
          color={notice === 'signedOut' ? 'teal' : 'blue'}
          variant="light"
          icon={<IconInfoCircle />}
          data-testid="signin-notice"
          data-reason={notice}
          role="status"
        >
          {t(`auth.signIn.notice.${notice}`)}
        </Alert>
      ) : null}
      <form onSubmit={(event) => void handleSubmit(event)} noValidate>
        <Stack gap="md">
          <TextInput
            {...form.register('email')}
            type="email"
            label={t('auth.fields.email')}
            autoComplete="username"
            inputMode="email"
            required
            error={fieldErrorText(errors.email?.message)}
            data-testid="signin-email"
          />
          <PasswordInput
            {...form.register('password')}
            label={t('auth.fields.password')}
            autoComplete="current-password"
            required
            error={fieldErrorText(errors.password?.message)}
            visibilityToggleButtonProps={{ 'aria-label': t('auth.fields.showPassword') }}
            data-testid="signin-password"
          />
          <Group justify="flex-end" mt={-6}>
            <Anchor component={Link} to="/forgot-password" size="sm" data-testid="signin-forgot-link">
              {t('auth.signIn.forgot')}
            </Anchor>
          </Group>
          {failure ? (
            <Alert
              color="red"
              variant="light"
              icon={<IconAlertCircle />}
              role="alert"
              data-testid="signin-error"
              data-code={failure instanceof ApiError ? failure.code : ''}
            >
              <Stack gap="xs">
                <Text size="sm">{errorText(failure)}</Text>
                {unverifiedEmail ? (
                  resend.isSuccess ? (
                    <Text size="sm" fw={600} data-testid="signin-resend-sent">
                      {t('auth.verify.resent')}
                    </Text>
                  ) : (
                    <Group>
                      <Button
                        size="xs"
                        variant="white"
                        leftSection={<IconMailForward size={16} />}
                        loading={resend.isPending}
                        onClick={() => resend.mutate(unverifiedEmail)}
                        data-testid="signin-resend-verification"
                      >
                        {t('auth.verify.resend')}
                      </Button>
                    </Group>
                  )
                ) : null}
                {resend.isError ? (
                  <Text size="sm" data-testid="signin-resend-error">
                    {errorText(resend.error)}
                  </Text>
                ) : null}
              </Stack>
            </Alert>
          ) : null}
          <Button
            type="submit"
            size="md"
            loading={signIn.isPending}
            leftSection={<IconLogin2 size={18} />}
            data-testid="signin-submit"
          >
            {t('auth.signIn.submit')}
          </Button>
          <Text size="sm" ta="center" c="gray.7">
            {t('auth.signIn.noAccount')}{' '}
            <Anchor component={Link} to="/register" data-testid="signin-register-link">
              {t('auth.signIn.register')}
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthPanel>
  );
}

function SecondFactorStep({
  credentials,
  signIn,
  onBack,
}: {
  credentials: LoginRequest;
  signIn: SignInMutation;
  onBack: () => void;
}) {
  const { t } = useTranslation();
  const errorText = useApiErrorText();
  const fieldErrorText = useFieldErrorText();
  const [isRecovery, setIsRecovery] = useState(false);
  const [failure, setFailure] = useState<Error | null>(null);
  const form = useForm<SecondFactor>({ defaultValues: { code: '' } });
  const { errors } = form.formState;

  const handleSubmit = form.handleSubmit(async ({ code }) => {
    setFailure(null);
    const parsed = (isRecovery ? recoveryCodeSchema : totpCodeSchema).safeParse(code);
    if (!parsed.success) {
      form.setError(
        'code',
        { type: 'client', message: parsed.error.issues[0]?.message },
        { shouldFocus: true },
      );
      return;
    }
    try {
      await signIn.mutateAsync(
        isRecovery
          ? { ...credentials, recoveryCode: parsed.data }
          : { ...credentials, totpCode: parsed.data },
      );
    } catch (error) {
      if (error instanceof ApiError && (error.code === 'MFA_INVALID' || error.code === 'MFA_REQUIRED')) {
        form.setError('code', { type: 'server', message: 'errors.codes.MFA_INVALID' }, { shouldFocus: true });
        return;
      }
      setFailure(error instanceof Error ? error : new Error(String(error)));
    }
  });

  const switchMode = () => {
    setIsRecovery((value) => !value);
    form.reset({ code: '' });
    setFailure(null);
  };

  return (
    <form onSubmit={(event) => void handleSubmit(event)} noValidate>
      <Stack gap="md">
        <TextInput
          key={isRecovery ? 'recovery' : 'totp'}
          {...form.register('code')}
          label={isRecovery ? t('auth.signIn.mfa.recoveryLabel') : t('auth.signIn.mfa.codeLabel')}
          description={isRecovery ? t('auth.signIn.mfa.recoveryHint') : t('auth.signIn.mfa.codeHint')}
          autoComplete="one-time-code"
          inputMode={isRecovery ? 'text' : 'numeric'}
          maxLength={isRecovery ? 11 : 6}
          autoFocus
          required
          error={fieldErrorText(errors.code?.message)}
          data-testid={isRecovery ? 'signin-recovery-code' : 'signin-mfa-code'}
        />
        {failure ? (
          <Alert
            color="red"
            variant="light"
            icon={<IconAlertCircle />}
            role="alert"
            data-testid="signin-error"
            data-code={failure instanceof ApiError ? failure.code : ''}
          >
            {errorText(failure)}
          </Alert>
        ) : null}
        <Button type="submit" size="md" loading={signIn.isPending} data-testid="signin-mfa-submit">
          {t('auth.signIn.mfa.submit')}
        </Button>
        <Group justify="space-between" gap="xs">
          <Button
            variant="subtle"
            size="compact-sm"
            leftSection={<IconArrowLeft size={16} />}
            onClick={onBack}
            data-testid="signin-mfa-back"
          >
            {t('common.back')}
          </Button>
          <Button variant="subtle" size="compact-sm" onClick={switchMode} data-testid="signin-mfa-switch">
            {isRecovery ? t('auth.signIn.mfa.useCode') : t('auth.signIn.mfa.useRecovery')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
