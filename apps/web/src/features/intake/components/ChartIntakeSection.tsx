import { Anchor, Badge, Center, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useClock } from '../../../lib/use-clock';
import { useLanguage } from '../../../lib/ui-state';
import { usePatientForms } from '../api/intake';
import { IntakeScore } from './IntakeScoreBadges';

/** The trend charts load only when a chart with scores shows them (Recharts stays out of first load). */
const IntakeTrendChart = lazy(() => import('./IntakeTrendChart'));

/**
 * The chart's intake forms, newest first: when each was sent, the instrument's score and band (so a
 * clinician reads the trend down the list, and above it the PHQ-9 / GAD-7 trend charts) and the
 * item-9 flag, each opening its answers. Hidden
 * when the reader may not see them or there are none.
 */
export function ChartIntakeSection({ patientId }: { patientId: string }) {
  const { t } = useTranslation();
  const clock = useClock();
  const language = useLanguage() === 'en' ? 'en' : 'es';
  const forms = usePatientForms(patientId);
  const data = forms.data ?? [];
  if (data.length === 0) {
    return null;
  }
  const hasScores = data.some((form) => form.score !== null);
  return (
    <Paper withBorder radius="md" p="md" data-testid="chart-intake">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('intake.chart.title')}
        </Title>
        {hasScores ? (
          <Suspense
            fallback={
              <Center mih={120}>
                <Loader size="sm" aria-label={t('intake.trend.loading')} />
              </Center>
            }
          >
            <IntakeTrendChart forms={data} />
          </Suspense>
        ) : null}
        <Stack gap="xs" component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {data.map((form) => (
            <Group
              key={form.id}
              component="li"
              justify="space-between"
              gap="sm"
              data-testid="chart-intake-row"
            >
              <Stack gap={0}>
                <Anchor component={Link} to={`/admin/intake/${encodeURIComponent(form.id)}`} fw={600}>
                  {form.title[language]}
                </Anchor>
                <Text size="sm" c="gray.7" data-testid="chart-intake-when">
                  {form.completedAt === null
                    ? t('intake.chart.changedOn', { date: clock.dateTime(form.updatedAt) })
                    : t('intake.chart.sentOn', { date: clock.dateTime(form.completedAt) })}
                </Text>
              </Stack>
              {form.score !== null ? (
                <IntakeScore score={form.score} />
              ) : (
                <Badge variant="light" color="gray" style={{ textTransform: 'none' }}>
                  {t(`intake.status.${form.status === 'completed' ? 'completed' : 'inProgress'}`)}
                </Badge>
              )}
            </Group>
          ))}
        </Stack>
      </Stack>
    </Paper>
  );
}
