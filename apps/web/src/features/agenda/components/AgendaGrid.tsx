import type { Appointment } from '@telemedicina/shared/appointment';
import type { Slot } from '@telemedicina/shared/booking';
import { VisuallyHidden } from '@mantine/core';
import { useEffect, useState, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { appointmentStatusColors } from '../../../lib/appointment-status';
import { useLanguage } from '../../../lib/ui-state';
import { formatWallTime, wallClockOf } from '../../../lib/zoned-time';
import { gridHours, placeBlocks, placeFreeIntervals } from '../agenda-layout';
import classes from './Agenda.module.css';
import { formatDayHeading, formatHourLabel, formatMinutes } from './agenda-format';

/** Pixels per hour of the grid. */
const hourHeight = 72;

export interface AgendaGridProps {
  appointments: readonly Appointment[];
  freeSlots: readonly Slot[];
  days: readonly string[];
  /** The doctor's zone: columns and times are its wall clock. */
  timeZone: string;
  today: string;
}

/** The day or week time grid: hour rows, one column a day, free times shaded, appointments as blocks. */
export function AgendaGrid({ appointments, freeSlots, days, timeZone, today }: AgendaGridProps) {
  const { t } = useTranslation();
  const language = useLanguage();
  const now = useMinuteClock();
  const nowWall = wallClockOf(now, timeZone);
  const blocks = placeBlocks(appointments, days, timeZone);
  const free = placeFreeIntervals(freeSlots, days, timeZone);
  const { startHour, endHour } = gridHours([...blocks, ...free]);
  const top = startHour * 60;
  const height = (endHour - startHour) * hourHeight;
  const hours = Array.from({ length: endHour - startHour }, (_, index) => startHour + index);
  const gridStyle = {
    '--agenda-columns': days.length,
    '--agenda-min-column': days.length > 1 ? '104px' : '240px',
    '--agenda-hour': `${hourHeight}px`,
  } as CSSProperties;

  return (
    <div className={classes.scroller}>
      <div className={classes.grid} style={gridStyle} data-testid="agenda-grid" data-view-days={days.length}>
        <div className={classes.corner} />
        {days.map((day) => (
          <div
            key={day}
            className={classes.dayHeader}
            data-today={day === today || undefined}
            data-testid="agenda-day-header"
          >
            {formatDayHeading(day, language)}
          </div>
        ))}
        <div className={classes.hours} style={{ height }} aria-hidden>
          {hours.map((hour) => (
            <span
              key={hour}
              className={classes.hourLabel}
              style={{ top: (hour - startHour) * hourHeight + (hour === startHour ? 8 : 0) }}
            >
              {formatHourLabel(hour, language)}
            </span>
          ))}
        </div>
        {days.map((day, column) => (
          <div
            key={day}
            className={classes.column}
            style={{ height }}
            data-today={day === today || undefined}
            data-date={day}
            data-testid="agenda-column"
          >
            {day === nowWall.date && nowWall.minutes >= top && nowWall.minutes <= endHour * 60 ? (
              <div
                className={classes.now}
                style={{ top: ((nowWall.minutes - top) * hourHeight) / 60 }}
                aria-hidden
                data-testid="agenda-now"
              />
            ) : null}
            {free
              .filter((interval) => interval.column === column)
              .map((interval) => (
                <div
                  key={interval.startMinute}
                  className={classes.free}
                  style={{
                    top: ((interval.startMinute - top) * hourHeight) / 60,
                    height: ((interval.endMinute - interval.startMinute) * hourHeight) / 60,
                  }}
                  data-testid="agenda-free"
                />
              ))}
            {blocks
              .filter((block) => block.column === column)
              .map((block) => {
                const { item } = block;
                const color = appointmentStatusColors[item.status];
                const endMinutes = wallClockOf(item.endsAt, timeZone).minutes;
                const time = `${formatMinutes(block.startMinute, language)}–${formatMinutes(endMinutes, language)}`;
                const pixels = ((block.endMinute - block.startMinute) * hourHeight) / 60;
                const status = t(`adminDashboard.status.${item.status}`);
                const style = {
                  top: ((block.startMinute - top) * hourHeight) / 60,
                  height: Math.max(pixels - 2, 18),
                  left: `calc(${(block.lane / block.lanes) * 100}% + 2px)`,
                  width: `calc(${100 / block.lanes}% - 4px)`,
                  '--block-accent': `var(--mantine-color-${color}-6)`,
                  '--block-background': `var(--mantine-color-${color}-0)`,
                } as CSSProperties;
                return (
                  <Link
                    key={item.id}
                    to={`/admin/appointments/${encodeURIComponent(item.id)}`}
                    className={classes.block}
                    style={style}
                    data-compact={pixels < 34 || undefined}
                    data-faded={item.status === 'cancelled' || item.status === 'no_show' || undefined}
                    data-testid="agenda-block"
                    data-date={block.date}
                    data-start={formatWallTime(block.startMinute)}
                    data-status={item.status}
                    title={[time, item.patient.name, item.reason ?? '', status].filter(Boolean).join(' · ')}
                  >
                    <span className={classes.blockTime} data-testid="agenda-block-time">
                      {/* A short block has room for the start only; the whole range is in its title. */}
                      {pixels < 34 ? formatMinutes(block.startMinute, language) : time}
                    </span>
                    <span className={classes.blockName}>{item.patient.name}</span>
                    {pixels >= 60 && item.reason ? (
                      <span className={classes.blockReason}>{item.reason}</span>
                    ) : null}
                    {/* The link's name is its visible text plus what only the colour shows (WCAG 2.5.3). */}
                    <VisuallyHidden>{pixels < 34 ? `${time}, ${status}` : status}</VisuallyHidden>
                  </Link>
                );
              })}
          </div>
        ))}
      </div>
    </div>
  );
}

/** The current time, refreshed every minute (for the "now" line). */
function useMinuteClock(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(new Date()), 60_000);
    return () => window.clearInterval(timer);
  }, []);
  return now;
}
