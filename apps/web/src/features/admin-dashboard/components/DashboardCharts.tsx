import '@mantine/core/styles/ColorSwatch.layer.css';
import '@mantine/charts/styles.layer.css';
import { AreaChart, BarChart } from '@mantine/charts';
import { Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconChartBar } from '@tabler/icons-react';
import type { DashboardResponse } from '@telemedicina/shared/admin';
import { appointmentStatuses } from '@telemedicina/shared/common';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { appointmentStatusColors } from '../../../lib/appointment-status';
import { useLanguage } from '../../../lib/ui-state';
import { formatDay } from '../dashboard-range';
import classes from './Dashboard.module.css';

function useIsWide() {
  return useMediaQuery('(min-width: 48em)', true) ?? true;
}

function ChartCard({
  id,
  title,
  description,
  children,
}: {
  id: string;
  title: string;
  description: string;
  children: ReactNode;
}) {
  return (
    <Paper withBorder radius="lg" className={classes.chartCard} data-testid={`dashboard-chart-${id}`}>
      <Stack gap="md">
        <div>
          <Title order={2} size="h4">
            {title}
          </Title>
          <Text size="sm" c="gray.7">
            {description}
          </Text>
        </div>
        {children}
      </Stack>
    </Paper>
  );
}

/** What a chart shows when the range has nothing to draw: a sentence, not empty axes. */
function ChartEmpty({ text, testId }: { text: string; testId: string }) {
  return (
    <Stack align="center" justify="center" gap="xs" className={classes.chartEmpty} data-testid={testId}>
      <ThemeIcon size={44} radius="xl" variant="light" color="gray" aria-hidden>
        <IconChartBar size={24} />
      </ThemeIcon>
      <Text size="sm" c="gray.7" ta="center" maw={360}>
        {text}
      </Text>
    </Stack>
  );
}

/** Appointments per day, stacked by status (only the statuses that occur, in the usual colours). */
export function AppointmentsPerDayChart({ data }: { data: DashboardResponse }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const isWide = useIsWide();
  const number = new Intl.NumberFormat(language);
  const rows = data.appointmentsPerDay.map((row) => ({ ...row, day: formatDay(row.date, language) }));
  const present = appointmentStatuses.filter((status) => rows.some((row) => row[status] > 0));
  const series = present.map((status) => ({
    name: status,
    label: t(`adminDashboard.status.${status}`),
    color: `${appointmentStatusColors[status]}.6`,
  }));

  return (
    <ChartCard
      id="appointments"
      title={t('adminDashboard.charts.appointmentsTitle')}
      description={t('adminDashboard.charts.appointmentsDescription')}
    >
      {series.length === 0 ? (
        <ChartEmpty
          text={t('adminDashboard.charts.appointmentsEmpty')}
          testId="dashboard-appointments-empty"
        />
      ) : (
        <BarChart
          h={isWide ? 300 : 260}
          data={rows}
          dataKey="day"
          type="stacked"
          series={series}
          withLegend
          legendProps={{ verticalAlign: 'bottom' }}
          tickLine="y"
          gridAxis="x"
          valueFormatter={(value) => number.format(value)}
          xAxisProps={{ minTickGap: isWide ? 16 : 28, interval: 'preserveStartEnd' }}
          yAxisProps={{ allowDecimals: false, width: 36 }}
          maxBarWidth={36}
          className={classes.chart}
        />
      )}
    </ChartCard>
  );
}

/** Patient accounts created per day. */
export function NewPatientsChart({ data }: { data: DashboardResponse }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const isWide = useIsWide();
  const number = new Intl.NumberFormat(language);
  const rows = data.newPatientsPerDay.map((row) => ({ ...row, day: formatDay(row.date, language) }));
  const isEmpty = rows.every((row) => row.count === 0);

  return (
    <ChartCard
      id="new-patients"
      title={t('adminDashboard.charts.newPatientsTitle')}
      description={t('adminDashboard.charts.newPatientsDescription')}
    >
      {isEmpty ? (
        <ChartEmpty
          text={t('adminDashboard.charts.newPatientsEmpty')}
          testId="dashboard-new-patients-empty"
        />
      ) : (
        <AreaChart
          h={isWide ? 260 : 220}
          data={rows}
          dataKey="day"
          series={[{ name: 'count', label: t('adminDashboard.charts.newPatientsSeries'), color: 'cyan.6' }]}
          curveType="monotone"
          withDots={rows.length <= (isWide ? 31 : 14)}
          tickLine="y"
          gridAxis="x"
          valueFormatter={(value) => number.format(value)}
          xAxisProps={{ minTickGap: isWide ? 16 : 28, interval: 'preserveStartEnd' }}
          yAxisProps={{ allowDecimals: false, width: 36 }}
          className={classes.chart}
        />
      )}
    </ChartCard>
  );
}

/** Visits per doctor (most first), as horizontal bars split into completed, no-shows and the rest. */
export function VisitsPerDoctorChart({ data }: { data: DashboardResponse }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const isWide = useIsWide();
  const number = new Intl.NumberFormat(language);
  const nameWidth = isWide ? 150 : 112;
  const maxNameLength = isWide ? 22 : 16;
  const rows = data.visitsPerDoctor.map((doctor) => ({
    name: doctor.name,
    completed: doctor.completed,
    noShows: doctor.noShows,
    other: Math.max(0, doctor.total - doctor.completed - doctor.noShows),
  }));

  return (
    <ChartCard
      id="doctors"
      title={t('adminDashboard.charts.doctorsTitle')}
      description={t('adminDashboard.charts.doctorsDescription')}
    >
      {rows.length === 0 ? (
        <ChartEmpty text={t('adminDashboard.charts.doctorsEmpty')} testId="dashboard-doctors-empty" />
      ) : (
        <BarChart
          h={Math.max(200, rows.length * 36 + 80)}
          data={rows}
          dataKey="name"
          type="stacked"
          orientation="vertical"
          series={[
            {
              name: 'completed',
              label: t('adminDashboard.status.completed'),
              color: `${appointmentStatusColors.completed}.6`,
            },
            {
              name: 'noShows',
              label: t('adminDashboard.status.no_show'),
              color: `${appointmentStatusColors.no_show}.6`,
            },
            { name: 'other', label: t('adminDashboard.charts.otherStatuses'), color: 'blue.3' },
          ]}
          withLegend
          legendProps={{ verticalAlign: 'bottom' }}
          tickLine="x"
          gridAxis="y"
          valueFormatter={(value) => number.format(value)}
          xAxisProps={{ allowDecimals: false }}
          yAxisProps={{
            width: nameWidth,
            tickFormatter: (name: string) =>
              name.length > maxNameLength ? `${name.slice(0, maxNameLength - 1)}…` : name,
          }}
          maxBarWidth={24}
          className={classes.chart}
        />
      )}
    </ChartCard>
  );
}
