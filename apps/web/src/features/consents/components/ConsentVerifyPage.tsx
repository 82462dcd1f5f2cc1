import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/Paper.layer.css';
import { Alert, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { normalizeVerificationCode } from '@telemedicina/shared/prescriptions';
import { IconCircleCheck, IconCircleX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { BrandMark } from '../../../components/brand/BrandMark';
import { LanguageSwitcher } from '../../../components/language-switcher/LanguageSwitcher';
import pageClasses from '../../../components/section-page/SectionPage.module.css';
import { useClock } from '../../../lib/use-clock';
import { useConsentVerification } from '../api/verify-consent';
import classes from './Consents.module.css';

/**
 * `/verify-consent/:code` (public, the address printed on a signed consent): whether it is
 * genuine and still in force, which document and version, the signer's initials, when, the
 * SHA-256 of the text — and the date it was withdrawn, if it was.
 */
export function ConsentVerifyPage() {
  const { t } = useTranslation();
  const { code: routeCode = '' } = useParams();
  const code = normalizeVerificationCode(routeCode) ?? '';
  const clock = useClock();
  const verification = useConsentVerification(code);
  const answer = verification.data;
  return (
    <div className={pageClasses.page} data-testid="consent-verify-page">
      <Stack gap="lg" maw={720}>
        <Group justify="space-between">
          <Group gap="xs">
            <BrandMark size={32} />
            <Text fw={700}>{t('app.name')}</Text>
          </Group>
          <LanguageSwitcher />
        </Group>
        <Title order={1} className={pageClasses.title}>
          {t('consents.verify.title')}
        </Title>
        {code !== '' && verification.isPending ? <Loader /> : null}
        {code === '' || verification.isError ? (
          <Alert color="red" variant="light" data-testid="consent-verify-not-found">
            {t('consents.verify.notFound')}
          </Alert>
        ) : null}
        {answer !== undefined ? (
          <Paper withBorder radius="md" p="lg" data-testid="consent-verify-result" data-valid={answer.valid}>
            <Stack gap="md">
              <Group gap="sm" wrap="nowrap">
                {answer.valid ? (
                  <IconCircleCheck size={36} color="var(--mantine-color-teal-7)" aria-hidden />
                ) : (
                  <IconCircleX size={36} color="var(--mantine-color-red-7)" aria-hidden />
                )}
                <Stack gap={0}>
                  <Text
                    fw={700}
                    size="lg"
                    c={answer.valid ? 'teal.9' : 'red.9'}
                    data-testid="consent-verify-verdict"
                  >
                    {answer.valid || answer.withdrawnAt === null
                      ? t('consents.verify.valid')
                      : t('consents.verify.withdrawn', { date: clock.dateTime(answer.withdrawnAt) })}
                  </Text>
                  <Text size="sm" c="gray.7">
                    {code}
                  </Text>
                </Stack>
              </Group>
              <dl className={pageClasses.facts}>
                <dt>{t('consents.verify.document')}</dt>
                <dd>
                  {answer.title} · {t('consents.version', { version: answer.version })}
                </dd>
                <dt>{t('consents.verify.signer')}</dt>
                <dd>{answer.signerInitials}</dd>
                <dt>{t('consents.verify.signedAt')}</dt>
                <dd>
                  {clock.dateTime(answer.signedAt)} ({clock.zoneName()})
                </dd>
                <dt>{t('consents.verify.hash')}</dt>
                <dd className={classes.hash}>{answer.contentSha256}</dd>
              </dl>
              <Text size="xs" c="gray.7">
                {t('consents.verify.privacy')}
              </Text>
            </Stack>
          </Paper>
        ) : null}
      </Stack>
    </div>
  );
}
