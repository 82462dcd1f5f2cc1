import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/Paper.layer.css';
import { Alert, Button, Group, Loader, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { normalizeVerificationCode } from '@telemedicina/shared/prescriptions';
import { IconCircleCheck, IconCircleX } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { BrandMark } from '../../../components/brand/BrandMark';
import { LanguageSwitcher } from '../../../components/language-switcher/LanguageSwitcher';
import pageClasses from '../../../components/section-page/SectionPage.module.css';
import { ApiError } from '../../../lib/api-client';
import { useApiErrorText } from '../../../lib/error-text';
import { formatDateTime } from '../../../lib/format';
import { useViewerTimeZone } from '../../../lib/use-clock';
import { useLanguage } from '../../../lib/ui-state';
import { usePrescriptionVerification } from '../api/verify-prescription';
import classes from './Prescriptions.module.css';

/**
 * `/verify` and `/verify/:code` (public, no sign-in): a pharmacist or anyone holding the paper
 * types the code and learns whether the prescription is genuine and still valid, when it was
 * issued and by which doctor — never who the patient is or what was prescribed.
 */
export function VerifyPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { code: routeCode = '' } = useParams();
  const normalized = normalizeVerificationCode(routeCode) ?? '';
  const [typed, setTyped] = useState(routeCode);
  const [typedError, setTypedError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const code = normalizeVerificationCode(typed);
    if (code === null) {
      setTypedError(t('verify.invalidFormat'));
      return;
    }
    setTypedError(null);
    setTyped(code);
    void navigate(`/verify/${code}`);
  };

  return (
    <div className={classes.publicPage} data-testid="verify-page">
      <Stack gap="lg">
        <Group justify="space-between">
          <Group gap="xs">
            <BrandMark size={32} />
            <Text fw={700}>{t('app.name')}</Text>
          </Group>
          <LanguageSwitcher />
        </Group>
        <Stack gap={4}>
          <Title order={1} className={pageClasses.title}>
            {t('verify.title')}
          </Title>
          <Text c="gray.7">{t('verify.description')}</Text>
        </Stack>
        <form onSubmit={submit} noValidate>
          <Group align="flex-end" gap="sm" wrap="wrap">
            <TextInput
              style={{ flex: '1 1 240px' }}
              label={t('verify.codeLabel')}
              placeholder={t('verify.codePlaceholder')}
              autoCapitalize="characters"
              autoComplete="off"
              spellCheck={false}
              maxLength={20}
              value={typed}
              onChange={(event) => setTyped(event.currentTarget.value)}
              error={typedError}
              data-testid="verify-code"
            />
            <Button type="submit" data-testid="verify-submit">
              {t('verify.submit')}
            </Button>
          </Group>
        </form>
        {routeCode !== '' && normalized === '' ? (
          <Alert color="red" variant="light" data-testid="verify-not-found">
            {t('verify.invalidFormat')}
          </Alert>
        ) : null}
        {normalized !== '' ? <VerificationResult code={normalized} /> : null}
      </Stack>
    </div>
  );
}

function VerificationResult({ code }: { code: string }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const timeZone = useViewerTimeZone();
  const errorText = useApiErrorText();
  const verification = usePrescriptionVerification(code);
  if (verification.isPending) {
    return <Loader />;
  }
  if (verification.isError) {
    const isNotFound = verification.error instanceof ApiError && verification.error.code === 'NOT_FOUND';
    return (
      <Alert color="red" variant="light" title={t('verify.notFoundTitle')} data-testid="verify-not-found">
        {isNotFound ? t('verify.notFound', { code }) : errorText(verification.error)}
      </Alert>
    );
  }
  const answer = verification.data;
  return (
    <Paper withBorder radius="md" p="lg" data-testid="verify-result" data-status={answer.status}>
      <Stack gap="md">
        <Group gap="sm" wrap="nowrap">
          {answer.valid ? (
            <IconCircleCheck size={36} color="var(--mantine-color-teal-7)" aria-hidden />
          ) : (
            <IconCircleX size={36} color="var(--mantine-color-red-7)" aria-hidden />
          )}
          <Stack gap={0}>
            <Text fw={700} size="lg" c={answer.valid ? 'teal.9' : 'red.9'} data-testid="verify-verdict">
              {answer.valid ? t('verify.valid') : t('verify.cancelled')}
            </Text>
            <Text size="sm" c="gray.7">
              <span className={classes.code}>{code}</span>
            </Text>
          </Stack>
        </Group>
        <dl className={`${pageClasses.facts} ${classes.facts}`}>
          <dt>{t('verify.issuedAt')}</dt>
          <dd>{formatDateTime(answer.issuedAt, language, timeZone)}</dd>
          <dt>{t('verify.doctor')}</dt>
          <dd data-testid="verify-doctor">{answer.doctor.name}</dd>
          <dt>{t('verify.license')}</dt>
          <dd>{answer.doctor.licenseNumber ?? t('verify.noLicense')}</dd>
          <dt>{t('verify.itemsCount')}</dt>
          <dd>{answer.itemsCount}</dd>
        </dl>
        <Text size="xs" c="gray.7">
          {t('verify.privacy')}
        </Text>
      </Stack>
    </Paper>
  );
}
