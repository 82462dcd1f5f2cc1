import {
  Alert,
  Anchor,
  Button,
  Checkbox,
  PasswordInput,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { IconAlertCircle, IconUserPlus } from '@tabler/icons-react';
import { registerRequestSchema } from '@telemedicina/shared/auth';
import { checkPassword } from '@telemedicina/shared/password-policy';
import { useId, useMemo, useState } from 'react';
import { Controller, useForm, useWatch, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { z } from 'zod';
import { PasswordStrengthMeter } from '../../../components/password-strength/PasswordStrengthMeter';
import { useApiErrorText } from '../../../lib/error-text';
import { applyServerFieldErrors, passwordProblemKey, useFieldErrorText } from '../../../lib/form-errors';
import { browserTimeZone } from '../../../lib/time-zones';
import { LanguageSelect, TimeZoneSelect } from '../../../components/form-fields';
import { useLanguage } from '../../../lib/ui-state';
import { useRegister } from '../api/register';
import { AuthPanel } from './AuthPanel';
import { CheckEmailPanel } from './CheckEmailPanel';

const mustAccept = z.boolean().refine((value) => value, { message: 'validation.mustAccept' });

/** The shared request schema, with checkboxes that start unticked and the password policy applied. */
export const registerFormSchema = registerRequestSchema
  .extend({ acceptTerms: mustAccept, acceptTelemedicineConsent: mustAccept })
  .superRefine((values, context) => {
    const [problem] = checkPassword(values.password, { email: values.email, name: values.name }).problems;
    if (problem && values.password !== '') {
      context.addIssue({ code: 'custom', path: ['password'], message: passwordProblemKey(problem) });
    }
  });
type RegisterFormInput = z.input<typeof registerFormSchema>;
type RegisterFormOutput = z.output<typeof registerFormSchema>;

const registerFields = [
  'name',
  'email',
  'password',
  'phone',
  'dateOfBirth',
  'language',
  'timeZone',
  'acceptTerms',
  'acceptTelemedicineConsent',
] as const satisfies readonly (keyof RegisterFormInput)[];

/** `/register`: patient self-registration, then "check your email". */
export function RegisterPage() {
  const [sentTo, setSentTo] = useState<string | null>(null);
  return sentTo ? <CheckEmailPanel email={sentTo} /> : <RegisterForm onRegistered={setSentTo} />;
}

function RegisterForm({ onRegistered }: { onRegistered: (email: string) => void }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const errorText = useApiErrorText();
  const fieldErrorText = useFieldErrorText();
  const register = useRegister();
  const [failure, setFailure] = useState<unknown>(null);
  const meterId = useId();
  const defaultTimeZone = useMemo(() => browserTimeZone(), []);
  const today = new Date().toISOString().slice(0, 10);
  const form = useForm<RegisterFormInput, unknown, RegisterFormOutput>({
    resolver: zodResolver(registerFormSchema),
    defaultValues: {
      name: '',
      email: '',
      password: '',
      phone: '',
      dateOfBirth: '',
      language,
      timeZone: defaultTimeZone,
      acceptTerms: false,
      acceptTelemedicineConsent: false,
    },
  });
  const { errors } = form.formState;

  const handleSubmit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      await register.mutateAsync({ ...values, acceptTerms: true, acceptTelemedicineConsent: true });
      onRegistered(values.email);
    } catch (error) {
      if (!applyServerFieldErrors(error, form.setError, registerFields, 'password')) {
        setFailure(error);
      }
    }
  });

  return (
    <AuthPanel
      title={t('auth.register.title')}
      description={t('auth.register.description')}
      testId="register-page"
    >
      <form onSubmit={(event) => void handleSubmit(event)} noValidate>
        <Stack gap="md">
          <TextInput
            {...form.register('name')}
            label={t('auth.fields.name')}
            autoComplete="name"
            required
            error={fieldErrorText(errors.name?.message)}
            data-testid="register-name"
          />
          <TextInput
            {...form.register('email')}
            type="email"
            label={t('auth.fields.email')}
            autoComplete="email"
            inputMode="email"
            required
            error={fieldErrorText(errors.email?.message)}
            data-testid="register-email"
          />
          <div>
            <PasswordInput
              {...form.register('password')}
              label={t('auth.fields.newPassword')}
              autoComplete="new-password"
              required
              error={fieldErrorText(errors.password?.message)}
              aria-describedby={meterId}
              visibilityToggleButtonProps={{ 'aria-label': t('auth.fields.showPassword') }}
              data-testid="register-password"
            />
            <RegisterStrengthMeter id={meterId} control={form.control} />
          </div>
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
            <TextInput
              {...form.register('phone')}
              type="tel"
              label={t('auth.fields.phone')}
              description={t('auth.fields.phoneHint')}
              autoComplete="tel"
              inputMode="tel"
              required
              error={fieldErrorText(errors.phone?.message)}
              data-testid="register-phone"
            />
            <TextInput
              {...form.register('dateOfBirth')}
              type="date"
              label={t('auth.fields.dateOfBirth')}
              description={t('auth.fields.dateOfBirthHint')}
              autoComplete="bday"
              min="1900-01-01"
              max={today}
              required
              error={fieldErrorText(errors.dateOfBirth?.message)}
              data-testid="register-date-of-birth"
            />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
            <LanguageSelect
              {...form.register('language')}
              error={fieldErrorText(errors.language?.message)}
              data-testid="register-language"
            />
            <Controller
              control={form.control}
              name="timeZone"
              render={({ field }) => (
                <TimeZoneSelect
                  value={field.value}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  ref={field.ref}
                  error={fieldErrorText(errors.timeZone?.message)}
                  data-testid="register-timezone"
                />
              )}
            />
          </SimpleGrid>
          <Stack gap="sm">
            <Checkbox
              {...form.register('acceptTerms')}
              label={t('auth.register.terms.label')}
              description={t('auth.register.terms.text')}
              error={fieldErrorText(errors.acceptTerms?.message)}
              data-testid="register-accept-terms"
            />
            <Checkbox
              {...form.register('acceptTelemedicineConsent')}
              label={t('auth.register.consent.label')}
              description={t('auth.register.consent.text')}
              error={fieldErrorText(errors.acceptTelemedicineConsent?.message)}
              data-testid="register-accept-consent"
            />
          </Stack>
          {failure ? (
            <Alert
              color="red"
              variant="light"
              icon={<IconAlertCircle />}
              role="alert"
              data-testid="register-error"
            >
              {errorText(failure)}
            </Alert>
          ) : null}
          <Button
            type="submit"
            size="md"
            loading={register.isPending}
            leftSection={<IconUserPlus size={18} />}
            data-testid="register-submit"
          >
            {t('auth.register.submit')}
          </Button>
          <Text size="sm" ta="center" c="gray.7">
            {t('auth.register.haveAccount')}{' '}
            <Anchor component={Link} to="/" data-testid="register-signin-link">
              {t('auth.register.signIn')}
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthPanel>
  );
}

/** The meter follows the typed password on its own, so typing does not re-render the whole form. */
function RegisterStrengthMeter({
  id,
  control,
}: {
  id: string;
  control: Control<RegisterFormInput, unknown, RegisterFormOutput>;
}) {
  const [password, email, name] = useWatch({ control, name: ['password', 'email', 'name'] });
  return <PasswordStrengthMeter id={id} password={password} personal={{ email, name }} />;
}
