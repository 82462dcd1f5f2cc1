import '@mantine/core/styles/Badge.layer.css';
import '@mantine/core/styles/Paper.layer.css';
import { Anchor, Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useMe } from '../../../lib/session';
import { useClock } from '../../../lib/use-clock';
import { useLanguage } from '../../../lib/ui-state';
import { usePatientConsents } from '../api/patient-consents';

const colors = { signed: 'teal', outdated: 'yellow', withdrawn: 'red', not_signed: 'gray' } as const;

/**
 * The chart's consents: each document with the patient's state (signed vN on a date, a new
 * version not signed, withdrawn, not signed). The patient gets a link to sign or withdraw;
 * a viewer who may not read the consents sees nothing.
 */
export function ChartConsentsSection({ patientId }: { patientId: string }) {
  const { t } = useTranslation();
  const clock = useClock();
  const language = useLanguage();
  const isPatient = useMe().data?.user.id === patientId;
  const consents = usePatientConsents(patientId);
  if (consents.data === undefined) {
    return null;
  }
  return (
    <Paper withBorder radius="md" p="md" data-testid="chart-consents">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4">
            {t('consents.chartTitle')}
          </Title>
          {isPatient ? (
            <Anchor component={Link} to="/portal/consents" size="sm" data-testid="chart-consents-link">
              {t('consents.title')}
            </Anchor>
          ) : null}
        </Group>
        {consents.data.items.map((item) => {
          const latest = item.latest;
          const text =
            item.state === 'signed' && latest !== null
              ? t('consents.states.signed', { version: latest.version, date: clock.date(latest.signedAt) })
              : item.state === 'withdrawn' && latest?.withdrawnAt
                ? t('consents.states.withdrawn', { date: clock.date(latest.withdrawnAt) })
                : t(`consents.states.${item.state === 'outdated' ? 'outdated' : 'not_signed'}`, {
                    version: item.currentVersion,
                  });
          return (
            <Group key={item.documentId} justify="space-between" gap="xs" wrap="wrap">
              <Text size="sm">{language === 'en' ? item.titleEn : item.titleEs}</Text>
              <Badge color={colors[item.state]} variant="light" tt="none" data-state={item.state}>
                {text}
              </Badge>
            </Group>
          );
        })}
        {consents.data.telemedicineAcceptedAt !== null ? (
          <Text size="xs" c="gray.7">
            {t('consents.registrationAccepted', { date: clock.date(consents.data.telemedicineAcceptedAt) })}
          </Text>
        ) : null}
      </Stack>
    </Paper>
  );
}
