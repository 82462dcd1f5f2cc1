import { Group, Paper, SimpleGrid, Text, ThemeIcon } from '@mantine/core';
import {
  IconCalendarEvent,
  IconCircleCheck,
  IconClockHour4,
  IconUserOff,
  IconUserPlus,
  IconUsers,
  type Icon,
} from '@tabler/icons-react';
import type { DashboardResponse } from '@telemedicina/shared/admin';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '../../../lib/ui-state';
import { formatWait } from '../dashboard-range';
import classes from './Dashboard.module.css';

interface Stat {
  key: string;
  icon: Icon;
  color: string;
  label: string;
  value: string;
  hint: string;
}

/** The range's headline numbers; a rate or mean without data reads "—" with the reason. */
export function StatCards({ data }: { data: DashboardResponse }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const number = new Intl.NumberFormat(language);
  const percent = new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 1 });
  const { totals } = data;
  const stats: Stat[] = [
    {
      key: 'appointments',
      icon: IconCalendarEvent,
      color: 'blue',
      label: t('adminDashboard.stats.appointments'),
      value: number.format(totals.appointments),
      hint: t('adminDashboard.stats.cancelled', { count: number.format(totals.cancelled) }),
    },
    {
      key: 'completed',
      icon: IconCircleCheck,
      color: 'teal',
      label: t('adminDashboard.stats.completed'),
      value: number.format(totals.completed),
      hint: t('adminDashboard.stats.completedHint'),
    },
    {
      key: 'no-show-rate',
      icon: IconUserOff,
      color: 'red',
      label: t('adminDashboard.stats.noShowRate'),
      value: totals.noShowRate === null ? '—' : percent.format(totals.noShowRate),
      hint:
        totals.noShowRate === null
          ? t('adminDashboard.stats.noShowRateNone')
          : t('adminDashboard.stats.noShows', { count: number.format(totals.noShows) }),
    },
    {
      key: 'average-wait',
      icon: IconClockHour4,
      color: 'grape',
      label: t('adminDashboard.stats.averageWait'),
      value: totals.averageWaitSeconds === null ? '—' : formatWait(totals.averageWaitSeconds),
      hint:
        totals.averageWaitSeconds === null
          ? t('adminDashboard.stats.averageWaitNone')
          : t('adminDashboard.stats.averageWaitHint'),
    },
    {
      key: 'new-patients',
      icon: IconUserPlus,
      color: 'cyan',
      label: t('adminDashboard.stats.newPatients'),
      value: number.format(totals.newPatients),
      hint: t('adminDashboard.stats.newPatientsHint'),
    },
    {
      key: 'active-users',
      icon: IconUsers,
      color: 'indigo',
      label: t('adminDashboard.stats.activeUsers'),
      value: number.format(totals.activeUsers),
      hint: t('adminDashboard.stats.people', {
        doctors: number.format(totals.doctors),
        patients: number.format(totals.patients),
      }),
    },
  ];

  return (
    <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="md" data-testid="dashboard-stats">
      {stats.map((stat) => (
        <Paper
          key={stat.key}
          withBorder
          radius="lg"
          className={classes.stat}
          data-testid={`dashboard-stat-${stat.key}`}
        >
          <Group gap={8} wrap="nowrap" align="flex-start" justify="space-between">
            <Text size="xs" fw={600} c="gray.7" className={classes.statLabel}>
              {stat.label}
            </Text>
            <ThemeIcon size={28} radius="md" variant="light" color={stat.color} aria-hidden visibleFrom="xs">
              <stat.icon size={16} />
            </ThemeIcon>
          </Group>
          <Text className={classes.statValue} data-testid="dashboard-stat-value">
            {stat.value}
          </Text>
          <Text size="xs" c="gray.7" className={classes.statHint}>
            {stat.hint}
          </Text>
        </Paper>
      ))}
    </SimpleGrid>
  );
}
