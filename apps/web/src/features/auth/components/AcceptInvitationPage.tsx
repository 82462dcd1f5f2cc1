import { Alert, Badge, Button, Checkbox, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { IconUserCheck } from '@tabler/icons-react';
import { passwordSchema, personNameSchema, type InvitationInfo } from '@telemedicina/shared/auth';
import { checkPassword } from '@telemedicina/shared/password-policy';
import { useId, useMemo, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useSearchParams } from 'react-router';
import { z } from 'zod';
import { DelayedLoader } from '../../../components/delayed-loader/DelayedLoader';
import { PasswordStrengthMeter } from '../../../components/password-strength/PasswordStrengthMeter';
import { ApiError } from '../../../lib/api-client';
import { useApiErrorText } from '../../../lib/error-text';
import { applyServerFieldErrors, passwordProblemKey, useFieldErrorText } from '../../../lib/form-errors';
import { defaultSignedInPath, mfaEnrollmentPath } from '../../../lib/return-to';
import { useLanguage } from '../../../lib/ui-state';
import { useAcceptInvitation } from '../api/accept-invitation';
import { useInvitation } from '../api/get-invitation';
import { AuthPanel } from './AuthPanel';

/** `/accept-invitation?token=`: who is invited and as what; then a name and a password. */
export function AcceptInvitationPage() {
  const { t } = useTranslation();
  const errorText = useApiErrorText();
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token') ?? '';
  const invitation = useInvitation(token);
  const [isTokenRejected, setIsTokenRejected] = useState(false);

  if (token !== '' && invitation.isPending) {
    return <DelayedLoader />;
  }
  if (token === '' || isTokenRejected || invitation.isError) {
    const isInvalidLink =
      token === '' ||
      isTokenRejected ||
      (invitation.error instanceof ApiError &&
        (invitation.error.code === 'TOKEN_INVALID' || invitation.error.code === 'VALIDATION_FAILED'));
    return (
      <AuthPanel title={t('auth.invitation.invalidTitle')} testId="accept-invitation-invalid">
        <Text size="sm">{isInvalidLink ? t('auth.invitation.invalid') : errorText(invitation.error)}</Text>
        <Button component={Link} to="/" variant="light">
          {t('auth.goToSignIn')}
        </Button>
      </AuthPanel>
    );
  }
  if (!invitation.data) {
    return null;
  }
  return (
    <AcceptInvitationForm
      token={token}
      invitation={invitation.data}
      onTokenRejected={() => setIsTokenRejected(true)}
    />
  );
}

const mustAccept = z.boolean().refine((value) => value, { message: 'validation.mustAccept' });

function AcceptInvitationForm({
  token,
  invitation,
  onTokenRejected,
}: {
  token: string;
  invitation: InvitationInfo;
  onTokenRejected: () => void;
}) {
  const { t } = useTranslation();
  const language = useLanguage();
  const errorText = useApiErrorText();
  const fieldErrorText = useFieldErrorText();
  const accept = useAcceptInvitation();
  const meterId = useId();
  const [failure, setFailure] = useState<unknown>(null);
  // A patient (registered by reception) gives the telemedicine consent, as at self-registration.
  const isPatient = invitation.roles.some((role) => role.key === 'patient');
  const schema = useMemo(
    () =>
      z
        .object({
          name: personNameSchema,
          password: passwordSchema,
          acceptTerms: mustAccept,
          acceptTelemedicineConsent: isPatient ? mustAccept : z.boolean(),
        })
        .superRefine((values, context) => {
          const [problem] = checkPassword(values.password, {
            email: invitation.email,
            name: values.name,
          }).problems;
          if (problem && values.password !== '') {
            context.addIssue({ code: 'custom', path: ['password'], message: passwordProblemKey(problem) });
          }
        }),
    [invitation.email, isPatient],
  );
  const form = useForm<z.input<typeof schema>, unknown, z.output<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: {
      name: invitation.name,
      password: '',
      acceptTerms: false,
      acceptTelemedicineConsent: false,
    },
  });
  const [password, name] = useWatch({ control: form.control, name: ['password', 'name'] });

  if (accept.data) {
    return (
      <Navigate
        to={accept.data.session.mfaEnrollmentRequired ? mfaEnrollmentPath : defaultSignedInPath}
        replace
      />
    );
  }

  const handleSubmit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      await accept.mutateAsync({
        token,
        name: values.name,
        password: values.password,
        acceptTerms: true,
        ...(isPatient ? { acceptTelemedicineConsent: true as const } : {}),
      });
    } catch (error) {
      if (error instanceof ApiError && error.code === 'TOKEN_INVALID') {
        onTokenRejected();
        return;
      }
      const fields = ['name', 'password', 'acceptTerms', 'acceptTelemedicineConsent'] as const;
      if (!applyServerFieldErrors(error, form.setError, fields, 'password')) {
        setFailure(error);
      }
    }
  });

  return (
    <AuthPanel
      title={t('auth.invitation.title')}
      description={t('auth.invitation.description')}
      testId="accept-invitation-page"
    >
      <Stack gap={4}>
        <Text size="sm" c="gray.7">
          {t('auth.fields.email')}
        </Text>
        <Text fw={650} data-testid="accept-invitation-email">
          {invitation.email}
        </Text>
        <Group gap={6} mt={4} data-testid="accept-invitation-roles" aria-label={t('auth.invitation.roles')}>
          {invitation.roles.map((role) => (
            <Badge key={role.id} variant="light" tt="none">
              {role.name[language]}
            </Badge>
          ))}
        </Group>
      </Stack>
      <form onSubmit={(event) => void handleSubmit(event)} noValidate>
        <Stack gap="md">
          <TextInput
            {...form.register('name')}
            label={t('auth.fields.name')}
            autoComplete="name"
            required
            error={fieldErrorText(form.formState.errors.name?.message)}
            data-testid="accept-invitation-name"
          />
          <div>
            <PasswordInput
              {...form.register('password')}
              label={t('auth.fields.newPassword')}
              autoComplete="new-password"
              required
              aria-describedby={meterId}
              error={fieldErrorText(form.formState.errors.password?.message)}
              visibilityToggleButtonProps={{ 'aria-label': t('auth.fields.showPassword') }}
              data-testid="accept-invitation-password"
            />
            <PasswordStrengthMeter
              id={meterId}
              password={password}
              personal={{ email: invitation.email, name }}
            />
          </div>
          <Checkbox
            {...form.register('acceptTerms')}
            label={t('auth.register.terms.label')}
            description={t('auth.register.terms.text')}
            error={fieldErrorText(form.formState.errors.acceptTerms?.message)}
            data-testid="accept-invitation-terms"
          />
          {isPatient ? (
            <Checkbox
              {...form.register('acceptTelemedicineConsent')}
              label={t('auth.register.consent.label')}
              description={t('auth.register.consent.text')}
              error={fieldErrorText(form.formState.errors.acceptTelemedicineConsent?.message)}
              data-testid="accept-invitation-consent"
            />
          ) : null}
          {failure ? (
            <Alert color="red" variant="light" role="alert" data-testid="accept-invitation-error">
              {errorText(failure)}
            </Alert>
          ) : null}
          <Button
            type="submit"
            size="md"
            loading={accept.isPending}
            leftSection={<IconUserCheck size={18} />}
            data-testid="accept-invitation-submit"
          >
            {t('auth.invitation.submit')}
          </Button>
        </Stack>
      </form>
    </AuthPanel>
  );
}
