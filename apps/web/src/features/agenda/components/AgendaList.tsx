import '@mantine/core/styles/Badge.layer.css';
import { Badge, Group, Text } from '@mantine/core';
import type { Appointment } from '@telemedicina/shared/appointment';
import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { appointmentStatusColors } from '../../../lib/appointment-status';
import { useLanguage } from '../../../lib/ui-state';
import { formatWallTime, wallClockOf } from '../../../lib/zoned-time';
import { placeBlocks } from '../agenda-layout';
import classes from './Agenda.module.css';
import { formatLongDay, formatMinutes } from './agenda-format';

export interface AgendaListProps {
  appointments: readonly Appointment[];
  days: readonly string[];
  timeZone: string;
  today: string;
}

/** Phones: the visible days one under the other, each with its appointments in order. */
export function AgendaList({ appointments, days, timeZone, today }: AgendaListProps) {
  const { t } = useTranslation();
  const language = useLanguage();
  const blocks = placeBlocks(appointments, days, timeZone).sort(
    (a, b) => a.column - b.column || a.startMinute - b.startMinute,
  );
  return (
    <div className={classes.list} data-testid="agenda-list">
      {days.map((day, column) => {
        const ofDay = blocks.filter((block) => block.column === column);
        return (
          <section key={day} aria-label={formatLongDay(day, language)}>
            <div className={classes.listDay} data-today={day === today || undefined}>
              {formatLongDay(day, language)}
            </div>
            {ofDay.length === 0 ? (
              <Text size="sm" c="gray.7" mt={6}>
                {t('agenda.noAppointments')}
              </Text>
            ) : (
              ofDay.map((block) => {
                const { item } = block;
                const color = appointmentStatusColors[item.status];
                const end = wallClockOf(item.endsAt, timeZone).minutes;
                const style = {
                  '--block-accent': `var(--mantine-color-${color}-6)`,
                  '--block-background': `var(--mantine-color-${color}-0)`,
                } as CSSProperties;
                return (
                  <Link
                    key={item.id}
                    to={`/admin/appointments/${encodeURIComponent(item.id)}`}
                    className={classes.listItem}
                    style={style}
                    data-testid="agenda-block"
                    data-date={block.date}
                    data-start={formatWallTime(block.startMinute)}
                    data-status={item.status}
                  >
                    <Group justify="space-between" gap="xs" wrap="nowrap">
                      <Text size="sm" fw={700} data-testid="agenda-block-time">
                        {formatMinutes(block.startMinute, language)}–{formatMinutes(end, language)}
                      </Text>
                      <Badge size="sm" variant="light" color={color} tt="none">
                        {t(`adminDashboard.status.${item.status}`)}
                      </Badge>
                    </Group>
                    <Text size="sm" fw={600}>
                      {item.patient.name}
                    </Text>
                    {item.reason ? (
                      <Text size="xs" c="gray.8" lineClamp={2}>
                        {item.reason}
                      </Text>
                    ) : null}
                  </Link>
                );
              })
            )}
          </section>
        );
      })}
    </div>
  );
}
