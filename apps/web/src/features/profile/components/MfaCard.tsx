import {
  Alert,
  Badge,
  Button,
  Group,
  Paper,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useClipboard } from '@mantine/hooks';
import { IconCheck, IconCopy, IconShieldCheck, IconShieldOff } from '@tabler/icons-react';
import { passwordSchema, totpCodeSchema, type MfaSetupResponse, type User } from '@telemedicina/shared/auth';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ApiError, publishApiErrorAlert } from '../../../lib/api-client';
import { useApiErrorText } from '../../../lib/error-text';
import { useFieldErrorText } from '../../../lib/form-errors';
import {
  useDisableMfa,
  useEnableMfa,
  useRefreshMe,
  useRegenerateRecoveryCodes,
  useSetupMfa,
} from '../api/mfa';
import classes from './Profile.module.css';
import { RecoveryCodesPanel } from './RecoveryCodesPanel';

type View =
  | { kind: 'status' }
  | { kind: 'setup'; setup: MfaSetupResponse }
  | { kind: 'codes'; codes: string[] }
  | { kind: 'disable' }
  | { kind: 'regenerate' };

/** The manual key in groups of four, as authenticator apps show it. */
export function groupSecret(secret: string): string {
  return secret.replace(/\s+/g, '').replace(/(.{4})(?=.)/g, '$1 ');
}

/** Second factor: set up (QR + manual key + a code), recovery codes once, regenerate, disable. */
export function MfaCard({ user, isRequired }: { user: Pick<User, 'mfaEnabled'>; isRequired: boolean }) {
  const { t } = useTranslation();
  const [view, setView] = useState<View>({ kind: 'status' });
  const setup = useSetupMfa();
  const refreshMe = useRefreshMe();

  const startSetup = async () => {
    try {
      setView({ kind: 'setup', setup: await setup.mutateAsync() });
    } catch {
      // The API client has shown the error.
    }
  };

  return (
    <Paper withBorder radius="lg" className={classes.card} component="section" data-testid="profile-mfa">
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
          <div>
            <Title order={2} size="h4">
              {t('profile.mfa.title')}
            </Title>
            <Text size="sm" c="gray.7" mt={4}>
              {t('profile.mfa.description')}
            </Text>
          </div>
          <Badge
            color={user.mfaEnabled ? 'teal' : 'gray'}
            variant="light"
            leftSection={user.mfaEnabled ? <IconShieldCheck size={14} /> : <IconShieldOff size={14} />}
            data-testid="mfa-status"
            data-enabled={user.mfaEnabled}
          >
            {user.mfaEnabled ? t('profile.mfa.enabled') : t('profile.mfa.disabled')}
          </Badge>
        </Group>

        {view.kind === 'codes' ? (
          <RecoveryCodesPanel
            codes={view.codes}
            onDone={() => {
              setView({ kind: 'status' });
              void refreshMe();
            }}
          />
        ) : view.kind === 'setup' ? (
          <SetupStep
            setup={view.setup}
            onEnabled={(codes) => {
              setView({ kind: 'codes', codes });
              // The session's restrictions change now (an enrolment requirement is met).
              void refreshMe();
            }}
            onCancel={() => setView({ kind: 'status' })}
          />
        ) : view.kind === 'disable' ? (
          <CodeForm
            mode="disable"
            onDone={() => setView({ kind: 'status' })}
            onCancel={() => setView({ kind: 'status' })}
          />
        ) : view.kind === 'regenerate' ? (
          <CodeForm
            mode="regenerate"
            onDone={(codes) => setView(codes ? { kind: 'codes', codes } : { kind: 'status' })}
            onCancel={() => setView({ kind: 'status' })}
          />
        ) : user.mfaEnabled ? (
          <Group gap="sm">
            <Button
              variant="default"
              onClick={() => setView({ kind: 'regenerate' })}
              data-testid="mfa-regenerate-start"
            >
              {t('profile.mfa.regenerate')}
            </Button>
            <Button
              variant="default"
              color="red"
              onClick={() => setView({ kind: 'disable' })}
              data-testid="mfa-disable-start"
            >
              {t('profile.mfa.disable')}
            </Button>
          </Group>
        ) : (
          <Stack gap="sm" align="flex-start">
            {isRequired ? (
              <Text size="sm" fw={600} c="orange.9">
                {t('profile.mfa.requiredNote')}
              </Text>
            ) : null}
            <Button
              leftSection={<IconShieldCheck size={18} />}
              loading={setup.isPending}
              onClick={() => void startSetup()}
              data-testid="mfa-setup-start"
            >
              {t('profile.mfa.setup')}
            </Button>
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}

function SetupStep({
  setup,
  onEnabled,
  onCancel,
}: {
  setup: MfaSetupResponse;
  onEnabled: (codes: string[]) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const clipboard = useClipboard({ timeout: 2000 });
  const fieldErrorText = useFieldErrorText();
  const enable = useEnableMfa();
  const form = useForm<{ code: string }>({ defaultValues: { code: '' } });

  const handleSubmit = form.handleSubmit(async ({ code }) => {
    const parsed = totpCodeSchema.safeParse(code);
    if (!parsed.success) {
      form.setError(
        'code',
        { type: 'client', message: parsed.error.issues[0]?.message },
        { shouldFocus: true },
      );
      return;
    }
    try {
      const { recoveryCodes } = await enable.mutateAsync(parsed.data);
      onEnabled(recoveryCodes);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'MFA_INVALID') {
        form.setError('code', { type: 'server', message: 'errors.codes.MFA_INVALID' }, { shouldFocus: true });
        return;
      }
      publishApiErrorAlert(error);
    }
  });

  return (
    <Stack gap="md" data-testid="mfa-setup">
      <Text size="sm">{t('profile.mfa.step1')}</Text>
      <Group align="flex-start" gap="lg" wrap="wrap">
        <img
          src={setup.qrCodeDataUrl}
          alt={t('profile.mfa.qrAlt')}
          className={classes.qr}
          data-testid="mfa-setup-qr"
        />
        <Stack gap={6} maw={360}>
          <Text size="sm" c="gray.7">
            {t('profile.mfa.manual')}
          </Text>
          <Text className={classes.secret} data-testid="mfa-setup-secret" data-secret={setup.secret}>
            {groupSecret(setup.secret)}
          </Text>
          <Group>
            <Button
              size="xs"
              variant="default"
              leftSection={clipboard.copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
              onClick={() => clipboard.copy(setup.secret.replace(/\s+/g, ''))}
              data-testid="mfa-setup-copy-secret"
            >
              {clipboard.copied ? t('profile.mfa.codes.copied') : t('profile.mfa.copyKey')}
            </Button>
          </Group>
        </Stack>
      </Group>
      <form onSubmit={(event) => void handleSubmit(event)} noValidate>
        <Stack gap="sm">
          <TextInput
            {...form.register('code')}
            label={t('profile.mfa.step2')}
            autoComplete="one-time-code"
            inputMode="numeric"
            maxLength={6}
            required
            error={fieldErrorText(form.formState.errors.code?.message)}
            data-testid="mfa-setup-code"
            maw={240}
          />
          <Group gap="sm">
            <Button type="submit" loading={enable.isPending} data-testid="mfa-setup-confirm">
              {t('profile.mfa.confirm')}
            </Button>
            <Button variant="subtle" onClick={onCancel} data-testid="mfa-setup-cancel">
              {t('common.cancel')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}

function CodeForm({
  mode,
  onDone,
  onCancel,
}: {
  mode: 'disable' | 'regenerate';
  onDone: (codes?: string[]) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const fieldErrorText = useFieldErrorText();
  const errorText = useApiErrorText();
  const disable = useDisableMfa();
  const regenerate = useRegenerateRecoveryCodes();
  const [failure, setFailure] = useState<unknown>(null);
  const form = useForm<{ password: string; code: string }>({ defaultValues: { password: '', code: '' } });
  const { errors } = form.formState;
  const isPending = disable.isPending || regenerate.isPending;

  const handleSubmit = form.handleSubmit(async ({ password, code }) => {
    setFailure(null);
    const parsedCode = totpCodeSchema.safeParse(code);
    const parsedPassword = passwordSchema.safeParse(password);
    if (!parsedCode.success) {
      form.setError('code', { type: 'client', message: parsedCode.error.issues[0]?.message });
    }
    if (mode === 'disable' && !parsedPassword.success) {
      form.setError('password', { type: 'client', message: parsedPassword.error.issues[0]?.message });
    }
    if (!parsedCode.success || (mode === 'disable' && !parsedPassword.success)) {
      return;
    }
    try {
      if (mode === 'disable') {
        await disable.mutateAsync({ password, code: parsedCode.data });
        onDone();
      } else {
        const { recoveryCodes } = await regenerate.mutateAsync(parsedCode.data);
        onDone(recoveryCodes);
      }
    } catch (error) {
      if (error instanceof ApiError && error.code === 'MFA_INVALID') {
        form.setError('code', { type: 'server', message: 'errors.codes.MFA_INVALID' }, { shouldFocus: true });
      } else if (error instanceof ApiError && error.code === 'PASSWORD_INCORRECT') {
        form.setError(
          'password',
          { type: 'server', message: 'errors.codes.PASSWORD_INCORRECT' },
          { shouldFocus: true },
        );
      } else if (error instanceof ApiError && error.code === 'MFA_REQUIRED_BY_POLICY') {
        setFailure(error);
      } else {
        publishApiErrorAlert(error);
      }
    }
  });

  return (
    <form onSubmit={(event) => void handleSubmit(event)} noValidate data-testid={`mfa-${mode}-form`}>
      <Stack gap="sm">
        <Text size="sm">
          {mode === 'disable' ? t('profile.mfa.disableText') : t('profile.mfa.regenerateText')}
        </Text>
        {mode === 'disable' ? (
          <PasswordInput
            {...form.register('password')}
            label={t('profile.password.current')}
            autoComplete="current-password"
            required
            error={fieldErrorText(errors.password?.message)}
            visibilityToggleButtonProps={{ 'aria-label': t('auth.fields.showPassword') }}
            data-testid="mfa-disable-password"
            maw={360}
          />
        ) : null}
        <TextInput
          {...form.register('code')}
          label={t('auth.signIn.mfa.codeLabel')}
          autoComplete="one-time-code"
          inputMode="numeric"
          maxLength={6}
          required
          error={fieldErrorText(errors.code?.message)}
          data-testid={`mfa-${mode}-code`}
          maw={240}
        />
        {failure ? (
          <Alert color="orange" variant="light" role="alert" data-testid="mfa-policy-error">
            {errorText(failure)}
          </Alert>
        ) : null}
        <Group gap="sm">
          <Button
            type="submit"
            color={mode === 'disable' ? 'red' : undefined}
            loading={isPending}
            data-testid={`mfa-${mode}-submit`}
          >
            {mode === 'disable' ? t('profile.mfa.disable') : t('profile.mfa.regenerate')}
          </Button>
          <Button variant="subtle" onClick={onCancel}>
            {t('common.cancel')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
