import { Alert, Anchor, Button, Group, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconMailCheck, IconMailForward } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useApiErrorText } from '../../../lib/error-text';
import { useResendVerification } from '../hooks/use-resend-verification';
import { AuthPanel } from './AuthPanel';

/** After registering: where the link went, how to get another, and the way back to sign in. */
export function CheckEmailPanel({ email }: { email: string }) {
  const { t } = useTranslation();
  const errorText = useApiErrorText();
  const resend = useResendVerification();
  return (
    <AuthPanel title={t('auth.checkEmail.title')} testId="register-check-email">
      <Group wrap="nowrap" align="flex-start" gap="md">
        <ThemeIcon size={48} radius="xl" variant="light" aria-hidden>
          <IconMailCheck size={26} />
        </ThemeIcon>
        <Stack gap={6}>
          <Text>
            {t('auth.checkEmail.sentTo')}{' '}
            <Text span fw={650} data-testid="register-check-email-address">
              {email}
            </Text>
          </Text>
          <Text size="sm" c="gray.7">
            {t('auth.checkEmail.text')}
          </Text>
        </Stack>
      </Group>
      {resend.isSuccess ? (
        <Alert color="teal" variant="light" data-testid="register-resend-sent" role="status">
          {t('auth.verify.resent')}
        </Alert>
      ) : null}
      {resend.isError ? (
        <Alert color="red" variant="light" role="alert" data-testid="register-resend-error">
          {errorText(resend.error)}
        </Alert>
      ) : null}
      <Group justify="space-between" gap="sm">
        <Button
          variant="default"
          leftSection={<IconMailForward size={18} />}
          loading={resend.isPending}
          onClick={() => resend.mutate(email)}
          data-testid="register-resend"
        >
          {t('auth.verify.resend')}
        </Button>
        <Anchor component={Link} to="/" data-testid="register-check-email-signin">
          {t('auth.backToSignIn')}
        </Anchor>
      </Group>
    </AuthPanel>
  );
}
