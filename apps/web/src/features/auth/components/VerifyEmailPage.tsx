import { Alert, Button, Stack, Text } from '@mantine/core';
import { IconCircleCheck, IconLogin2 } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { DelayedLoader } from '../../../components/delayed-loader/DelayedLoader';
import { ApiError } from '../../../lib/api-client';
import { useApiErrorText } from '../../../lib/error-text';
import { useVerifyEmail } from '../api/verify-email';
import { AuthPanel } from './AuthPanel';
import { ResendVerificationForm } from './ResendVerificationForm';

/** `/verify-email?token=`: confirms the address, then offers to sign in — or a new link. */
export function VerifyEmailPage() {
  const { t } = useTranslation();
  const errorText = useApiErrorText();
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token') ?? '';
  const verification = useVerifyEmail(token);

  if (token !== '' && verification.isPending) {
    return (
      <AuthPanel title={t('auth.verify.checking')} testId="verify-email-pending">
        <DelayedLoader minHeight={80} />
      </AuthPanel>
    );
  }
  if (verification.isSuccess) {
    return (
      <AuthPanel title={t('auth.verify.successTitle')} testId="verify-email-success">
        <Alert color="teal" variant="light" icon={<IconCircleCheck />} role="status">
          {t('auth.verify.success')}
        </Alert>
        <Button
          component={Link}
          to="/"
          size="md"
          leftSection={<IconLogin2 size={18} />}
          data-testid="verify-email-signin"
        >
          {t('auth.goToSignIn')}
        </Button>
      </AuthPanel>
    );
  }
  const isInvalidLink =
    token === '' ||
    (verification.error instanceof ApiError &&
      (verification.error.code === 'TOKEN_INVALID' || verification.error.code === 'VALIDATION_FAILED'));
  return (
    <AuthPanel title={t('auth.verify.invalidTitle')} testId="verify-email-invalid">
      <Stack gap="md">
        <Text size="sm" c="gray.8" data-testid="verify-email-invalid-text">
          {isInvalidLink ? t('auth.verify.invalid') : errorText(verification.error)}
        </Text>
        <Text size="sm" c="gray.7">
          {t('auth.verify.resendIntro')}
        </Text>
        <ResendVerificationForm />
      </Stack>
    </AuthPanel>
  );
}
