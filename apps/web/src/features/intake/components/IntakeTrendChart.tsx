import '@mantine/charts/styles.layer.css';
import { LineChart } from '@mantine/charts';
import { Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import type { IntakeFormSummary } from '@telemedicina/shared/intake';
import type { Instrument } from '@telemedicina/shared/intake-logic';
import { useTranslation } from 'react-i18next';
import { useClock } from '../../../lib/use-clock';
import { trendBands as bands, trendTicks } from './trend-bands';

function InstrumentTrend({ instrument, forms }: { instrument: Instrument; forms: IntakeFormSummary[] }) {
  const { t } = useTranslation();
  const clock = useClock();
  const points = forms
    .filter((form) => form.score?.instrument === instrument && form.completedAt !== null)
    .sort((a, b) => (a.completedAt ?? '').localeCompare(b.completedAt ?? ''))
    .map((form) => ({
      date: clock.format(form.completedAt!, { day: 'numeric', month: 'short', year: '2-digit' }),
      fullDate: clock.date(form.completedAt!),
      score: form.score!.score,
      severity: t(`intake.severity.${form.score!.severity}`),
    }));
  if (points.length === 0) {
    return null;
  }
  const name = t(`intake.instruments.${instrument}`);
  const last = points[points.length - 1]!;
  return (
    <Stack gap={4} data-testid="intake-trend" data-instrument={instrument}>
      <Title order={3} size="h5">
        {t('intake.trend.title', { instrument: name })}
      </Title>
      <Text size="sm" c="gray.7" data-testid="intake-trend-summary">
        {t('intake.trend.summary', {
          count: points.length,
          instrument: name,
          score: last.score,
          max: bands[instrument].max,
          severity: last.severity,
          date: last.fullDate,
        })}
      </Text>
      <div aria-hidden="true">
        <LineChart
          h={200}
          data={points}
          dataKey="date"
          series={[{ name: 'score', label: name, color: 'clinic.6' }]}
          yAxisProps={{ domain: [0, bands[instrument].max], ticks: trendTicks(instrument), interval: 0 }}
          referenceLines={bands[instrument].starts.map((band) => ({
            y: band.from,
            label: t(`intake.severity.${band.severity}`),
            color: band.from >= 15 ? 'red.6' : band.from >= 10 ? 'orange.6' : 'yellow.7',
          }))}
          curveType="linear"
          withDots
          tooltipAnimationDuration={0}
        />
      </div>
      <VisuallyHidden>
        <Table>
          <caption>{t('intake.trend.title', { instrument: name })}</caption>
          <thead>
            <tr>
              <th scope="col">{t('intake.trend.date')}</th>
              <th scope="col">{t('intake.trend.score')}</th>
              <th scope="col">{t('intake.trend.band')}</th>
            </tr>
          </thead>
          <tbody>
            {points.map((point, index) => (
              <tr key={`${point.fullDate}-${index}`} data-testid="intake-trend-row">
                <td>{point.fullDate}</td>
                <td>{`${point.score} / ${bands[instrument].max}`}</td>
                <td>{point.severity}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      </VisuallyHidden>
    </Stack>
  );
}

/**
 * PHQ-9 and GAD-7 totals over time, one chart each with the lines where its bands begin, dates in
 * the reader's account zone; the chart is hidden from screen readers, which read a sentence about
 * the latest score and a table of every one instead. Loaded on demand (Recharts is large).
 */
export default function IntakeTrendChart({ forms }: { forms: IntakeFormSummary[] }) {
  return (
    <Stack gap="md">
      <InstrumentTrend instrument="phq9" forms={forms} />
      <InstrumentTrend instrument="gad7" forms={forms} />
    </Stack>
  );
}
