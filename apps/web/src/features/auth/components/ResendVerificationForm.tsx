import { Alert, Button, Stack, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { IconMailForward } from '@tabler/icons-react';
import { emailSchema } from '@telemedicina/shared/auth';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { useApiErrorText } from '../../../lib/error-text';
import { useFieldErrorText } from '../../../lib/form-errors';
import { useResendVerification } from '../hooks/use-resend-verification';

const resendSchema = z.object({ email: emailSchema });

/** Asks for a new verification link; the answer is the same whether or not the address is known. */
export function ResendVerificationForm() {
  const { t } = useTranslation();
  const errorText = useApiErrorText();
  const fieldErrorText = useFieldErrorText();
  const resend = useResendVerification();
  const form = useForm<z.input<typeof resendSchema>, unknown, z.output<typeof resendSchema>>({
    resolver: zodResolver(resendSchema),
    defaultValues: { email: '' },
  });
  if (resend.isSuccess) {
    return (
      <Alert color="teal" variant="light" role="status" data-testid="verify-resend-sent">
        {t('auth.verify.resent')}
      </Alert>
    );
  }
  return (
    <form onSubmit={(event) => void form.handleSubmit(({ email }) => resend.mutate(email))(event)} noValidate>
      <Stack gap="sm">
        <TextInput
          {...form.register('email')}
          type="email"
          label={t('auth.fields.email')}
          autoComplete="email"
          inputMode="email"
          required
          error={fieldErrorText(form.formState.errors.email?.message)}
          data-testid="verify-resend-email"
        />
        {resend.isError ? (
          <Alert color="red" variant="light" role="alert">
            {errorText(resend.error)}
          </Alert>
        ) : null}
        <Button
          type="submit"
          variant="light"
          leftSection={<IconMailForward size={18} />}
          loading={resend.isPending}
          data-testid="verify-resend-submit"
        >
          {t('auth.verify.resend')}
        </Button>
      </Stack>
    </form>
  );
}
