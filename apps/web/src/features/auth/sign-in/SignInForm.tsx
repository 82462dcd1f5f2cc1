import { Alert, Anchor, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import {
  IconAlertCircle,
  IconArrowLeft,
  IconInfoCircle,
  IconLock,
  IconLogin2,
  IconMailForward,
} from '@tabler/icons-react';
import type { LoginRequest, MeResponse } from '@telemedicina/shared/auth';
import { useRef, useState, type FormEvent, type MouseEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client';
import { useApiErrorText } from '../../../lib/error-text';
import { useFieldErrorText } from '../../../lib/form-errors';
import type { SessionEndReason } from '../../../lib/session-state';
import { resendVerification } from '../api/resend-verification';
import { signIn } from '../api/sign-in';
import { AuthPanel } from '../components/AuthPanel';
import { checkEmail, checkPassword, checkSecondFactorCode } from './credentials';

export interface SignInFormProps {
  /** How the last session on this page ended, shown once above the form. */
  notice: SessionEndReason | null;
  /**
   * The person followed a link to a page that needs a session (`/?returnTo=…`): the form says so
   * (unless how their session ended already explains it), and sign-in leads back there.
   */
  isReturning?: boolean;
  /** The server accepted the credentials (and second factor): the page's session is `me`'s. */
  onSignedIn: (me: MeResponse) => void;
  /** A link of the form was followed (forgot password, register): an in-app path. */
  onNavigate: (path: string) => void;
}

/**
 * Signing in: the credentials, then after a 401 MFA_REQUIRED the same credentials again with the
 * authenticator code or a recovery code. It depends on neither the router nor the query cache, so
 * the signed-out start page can show it before the rest of the application is downloaded
 * (`main.tsx`); inside the application the `/` route renders it too (`SignInPage`).
 */
export function SignInForm({ notice, isReturning = false, onSignedIn, onNavigate }: SignInFormProps) {
  const { t } = useTranslation();
  const [credentials, setCredentials] = useState<LoginRequest | null>(null);
  const [isPending, setIsPending] = useState(false);

  const submit = async (body: LoginRequest): Promise<void> => {
    setIsPending(true);
    let me: MeResponse;
    try {
      me = await signIn(body);
    } finally {
      setIsPending(false);
    }
    onSignedIn(me);
  };

  return credentials === null ? (
    <CredentialsStep
      notice={notice}
      isReturning={isReturning}
      isPending={isPending}
      submit={submit}
      onNavigate={onNavigate}
      onSecondFactorRequired={setCredentials}
    />
  ) : (
    <AuthPanel
      title={t('auth.signIn.mfa.title')}
      description={t('auth.signIn.mfa.description')}
      testId="signin-mfa-step"
    >
      <SecondFactorStep
        credentials={credentials}
        isPending={isPending}
        submit={submit}
        onBack={() => setCredentials(null)}
      />
    </AuthPanel>
  );
}

type Submit = (body: LoginRequest) => Promise<void>;
type FieldErrors<Field extends string> = Partial<Record<Field, string>>;
type ResendState = 'idle' | 'pending' | 'sent' | { error: unknown };

function toError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/** A plain left click on an in-app link: the page moves on without a reload. */
function followLink(event: MouseEvent<HTMLAnchorElement>, onNavigate: (path: string) => void, path: string) {
  if (event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) {
    return;
  }
  event.preventDefault();
  onNavigate(path);
}

function checkCredentials(email: string, password: string): FieldErrors<'email' | 'password'> {
  const emailCheck = checkEmail(email);
  const passwordCheck = checkPassword(password);
  return {
    ...(emailCheck.ok ? {} : { email: emailCheck.message }),
    ...(passwordCheck.ok ? {} : { password: passwordCheck.message }),
  };
}

function CredentialsStep({
  notice,
  isReturning,
  isPending,
  submit,
  onNavigate,
  onSecondFactorRequired,
}: {
  notice: SessionEndReason | null;
  isReturning: boolean;
  isPending: boolean;
  submit: Submit;
  onNavigate: (path: string) => void;
  onSecondFactorRequired: (credentials: LoginRequest) => void;
}) {
  const { t } = useTranslation();
  const errorText = useApiErrorText();
  const fieldErrorText = useFieldErrorText();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  // Like the forms elsewhere: fields are checked on submit, then again as they change.
  const [isSubmitted, setIsSubmitted] = useState(false);
  const [errors, setErrors] = useState<FieldErrors<'email' | 'password'>>({});
  const [failure, setFailure] = useState<Error | null>(null);
  const [unverifiedEmail, setUnverifiedEmail] = useState<string | null>(null);
  const [resend, setResend] = useState<ResendState>('idle');
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const refs = { email: emailRef, password: passwordRef };

  const handleChange = (field: 'email' | 'password', value: string) => {
    const next = { email, password, [field]: value };
    if (field === 'email') {
      setEmail(value);
    } else {
      setPassword(value);
    }
    if (isSubmitted) {
      setErrors((current) => ({ ...current, [field]: checkCredentials(next.email, next.password)[field] }));
    }
  };

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setIsSubmitted(true);
    const found = checkCredentials(email, password);
    setErrors(found);
    const firstInvalid = (['email', 'password'] as const).find((field) => found[field]);
    if (firstInvalid) {
      refs[firstInvalid].current?.focus();
      return;
    }
    setFailure(null);
    setUnverifiedEmail(null);
    setResend('idle');
    const credentials: LoginRequest = { email: email.trim().toLowerCase(), password };
    try {
      await submit(credentials);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'MFA_REQUIRED') {
        onSecondFactorRequired(credentials);
        return;
      }
      const serverErrors = readFieldErrors(error);
      if (serverErrors) {
        setErrors(serverErrors);
        refs[serverErrors.email ? 'email' : 'password'].current?.focus();
        return;
      }
      if (error instanceof ApiError && error.code === 'EMAIL_NOT_VERIFIED') {
        setUnverifiedEmail(credentials.email);
      }
      if (error instanceof ApiError && error.code === 'INVALID_CREDENTIALS') {
        setPassword('');
        passwordRef.current?.focus();
      }
      setFailure(toError(error));
    }
  };

  const handleResend = (address: string) => {
    setResend('pending');
    resendVerification(address).then(
      () => setResend('sent'),
      (error: unknown) => setResend({ error }),
    );
  };

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
      ) : isReturning ? (
        <Alert
          color="blue"
          variant="light"
          icon={<IconLock />}
          data-testid="signin-notice"
          data-reason="returnTo"
          role="status"
        >
          {t('auth.signIn.notice.returnTo')}
        </Alert>
      ) : null}
      <form onSubmit={(event) => void handleSubmit(event)} noValidate>
        <Stack gap="md">
          <TextInput
            ref={emailRef}
            name="email"
            value={email}
            onChange={(event) => handleChange('email', event.currentTarget.value)}
            type="email"
            label={t('auth.fields.email')}
            autoComplete="username"
            inputMode="email"
            required
            error={fieldErrorText(errors.email)}
            data-testid="signin-email"
          />
          <PasswordInput
            ref={passwordRef}
            name="password"
            value={password}
            onChange={(event) => handleChange('password', event.currentTarget.value)}
            label={t('auth.fields.password')}
            autoComplete="current-password"
            required
            error={fieldErrorText(errors.password)}
            visibilityToggleButtonProps={{ 'aria-label': t('auth.fields.showPassword') }}
            data-testid="signin-password"
          />
          <Group justify="flex-end" mt={-6}>
            <Anchor
              href="/forgot-password"
              onClick={(event) => followLink(event, onNavigate, '/forgot-password')}
              size="sm"
              data-testid="signin-forgot-link"
            >
              {t('auth.signIn.forgot')}
            </Anchor>
          </Group>
          {failure ? (
            <SignInErrorAlert failure={failure}>
              <Stack gap="xs">
                <Text size="sm">{errorText(failure)}</Text>
                {unverifiedEmail ? (
                  resend === 'sent' ? (
                    <Text size="sm" fw={600} data-testid="signin-resend-sent">
                      {t('auth.verify.resent')}
                    </Text>
                  ) : (
                    <Group>
                      <Button
                        size="xs"
                        variant="white"
                        leftSection={<IconMailForward size={16} />}
                        loading={resend === 'pending'}
                        onClick={() => handleResend(unverifiedEmail)}
                        data-testid="signin-resend-verification"
                      >
                        {t('auth.verify.resend')}
                      </Button>
                    </Group>
                  )
                ) : null}
                {typeof resend === 'object' ? (
                  <Text size="sm" data-testid="signin-resend-error">
                    {errorText(resend.error)}
                  </Text>
                ) : null}
              </Stack>
            </SignInErrorAlert>
          ) : null}
          <Button
            type="submit"
            size="md"
            loading={isPending}
            leftSection={<IconLogin2 size={18} />}
            data-testid="signin-submit"
          >
            {t('auth.signIn.submit')}
          </Button>
          <Text size="sm" ta="center" c="gray.7">
            {t('auth.signIn.noAccount')}{' '}
            <Anchor
              href="/register"
              onClick={(event) => followLink(event, onNavigate, '/register')}
              data-testid="signin-register-link"
            >
              {t('auth.signIn.register')}
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthPanel>
  );
}

/** The server's 400 VALIDATION_FAILED issues about the two fields, if it named any. */
function readFieldErrors(error: unknown): FieldErrors<'email' | 'password'> | null {
  if (!(error instanceof ApiError) || !error.fieldErrors) {
    return null;
  }
  const { email, password } = error.fieldErrors;
  if (email === undefined && password === undefined) {
    return null;
  }
  return { ...(email === undefined ? {} : { email }), ...(password === undefined ? {} : { password }) };
}

function SecondFactorStep({
  credentials,
  isPending,
  submit,
  onBack,
}: {
  credentials: LoginRequest;
  isPending: boolean;
  submit: Submit;
  onBack: () => void;
}) {
  const { t } = useTranslation();
  const errorText = useApiErrorText();
  const fieldErrorText = useFieldErrorText();
  const [isRecovery, setIsRecovery] = useState(false);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | undefined>(undefined);
  const [failure, setFailure] = useState<Error | null>(null);
  const codeRef = useRef<HTMLInputElement>(null);

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFailure(null);
    const checked = checkSecondFactorCode(code, isRecovery);
    if (!checked.ok) {
      setCodeError(checked.message);
      codeRef.current?.focus();
      return;
    }
    setCodeError(undefined);
    try {
      await submit(
        isRecovery
          ? { ...credentials, recoveryCode: checked.value }
          : { ...credentials, totpCode: checked.value },
      );
    } catch (error) {
      if (error instanceof ApiError && (error.code === 'MFA_INVALID' || error.code === 'MFA_REQUIRED')) {
        setCodeError('errors.codes.MFA_INVALID');
        codeRef.current?.focus();
        return;
      }
      setFailure(toError(error));
    }
  };

  const switchMode = () => {
    setIsRecovery((value) => !value);
    setCode('');
    setCodeError(undefined);
    setFailure(null);
  };

  return (
    <form onSubmit={(event) => void handleSubmit(event)} noValidate>
      <Stack gap="md">
        <TextInput
          key={isRecovery ? 'recovery' : 'totp'}
          ref={codeRef}
          name="code"
          value={code}
          onChange={(event) => setCode(event.currentTarget.value)}
          label={isRecovery ? t('auth.signIn.mfa.recoveryLabel') : t('auth.signIn.mfa.codeLabel')}
          description={isRecovery ? t('auth.signIn.mfa.recoveryHint') : t('auth.signIn.mfa.codeHint')}
          autoComplete="one-time-code"
          inputMode={isRecovery ? 'text' : 'numeric'}
          maxLength={isRecovery ? 11 : 6}
          autoFocus
          required
          error={fieldErrorText(codeError)}
          data-testid={isRecovery ? 'signin-recovery-code' : 'signin-mfa-code'}
        />
        {failure ? <SignInErrorAlert failure={failure}>{errorText(failure)}</SignInErrorAlert> : null}
        <Button type="submit" size="md" loading={isPending} data-testid="signin-mfa-submit">
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

/** A failed step's message (its stable code in `data-code`, for tests and support). */
function SignInErrorAlert({ failure, children }: { failure: unknown; children: ReactNode }) {
  return (
    <Alert
      color="red"
      variant="light"
      icon={<IconAlertCircle />}
      role="alert"
      data-testid="signin-error"
      data-code={failure instanceof ApiError ? failure.code : ''}
    >
      {children}
    </Alert>
  );
}
