import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/ActionIcon.layer.css';
import { ActionIcon, Alert, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { IconChevronLeft, IconChevronRight, IconClock } from '@tabler/icons-react';
import type { Slot } from '@telemedicina/shared/booking';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiErrorText } from '../../lib/error-text';
import { useLanguage } from '../../lib/ui-state';
import { useSlots } from './get-slots';
import { dateInZone, formatDay, formatTime, weekDays, weekWindow, zonesDiffer } from './slot-time';
import classes from './SlotPicker.module.css';
import { formatTimeZoneName } from '../../lib/clock';

export interface SlotPickerProps {
  doctorId: string;
  doctorTimeZone: string;
  /** The viewer's zone: slots are grouped and labelled in it. */
  viewerTimeZone: string;
  /** Called with the chosen slot; without it the slots are shown, disabled (viewers who cannot book). */
  onPick?: (slot: Slot) => void;
  /** The start (ISO) of the slot chosen so far, shown selected. */
  selected?: string | null;
  /** "Now", for tests. */
  now?: Date;
}

/**
 * A doctor's free slots week by week (Monday first): previous/next week, one column per day on
 * wide screens and the days stacked on phones, each slot a button with its time in the viewer's
 * zone. Says which zone the times are in when it is not the doctor's.
 */
export function SlotPicker({
  doctorId,
  doctorTimeZone,
  viewerTimeZone,
  onPick,
  selected = null,
  now,
}: SlotPickerProps) {
  const { t } = useTranslation();
  const language = useLanguage();
  const errorText = useApiErrorText();
  const [offset, setOffset] = useState(0);
  const today = useMemo(() => dateInZone(now ?? new Date(), viewerTimeZone), [now, viewerTimeZone]);
  const days = useMemo(() => weekDays(today, offset), [today, offset]);
  const window = weekWindow(days);
  const slots = useSlots({ doctorId, ...window, tz: viewerTimeZone });

  const byDay = useMemo(() => {
    const groups = new Map<string, Slot[]>(days.map((day) => [day, []]));
    for (const slot of slots.data?.slots ?? []) {
      groups.get(dateInZone(slot.startsAt, viewerTimeZone))?.push(slot);
    }
    return groups;
  }, [days, slots.data, viewerTimeZone]);
  const isEmpty = [...byDay.values()].every((list) => list.length === 0);
  // While another week loads, the previous week's answer is kept as a placeholder: its slots fall
  // outside the days shown, so the week would read as "no free times" until the answer comes.
  const isLoadingWeek = slots.isPending || slots.isPlaceholderData;
  const showsZone = zonesDiffer(viewerTimeZone, doctorTimeZone);
  const first = days[0] ?? today;
  const last = days.at(-1) ?? today;

  return (
    <Stack gap="sm" data-testid="slot-picker" aria-busy={isLoadingWeek}>
      <div className={classes.toolbar}>
        <Group gap="xs" wrap="nowrap">
          <ActionIcon
            variant="default"
            size="lg"
            onClick={() => setOffset((value) => Math.max(0, value - 1))}
            disabled={offset === 0}
            aria-label={t('appointments.slotPicker.previousWeek')}
            data-testid="slot-picker-previous"
          >
            <IconChevronLeft size={18} />
          </ActionIcon>
          <Text fw={600} size="sm" data-testid="slot-picker-week">
            {t('appointments.slotPicker.week', {
              from: formatDay(first, language),
              to: formatDay(last, language),
            })}
          </Text>
          <ActionIcon
            variant="default"
            size="lg"
            onClick={() => setOffset((value) => value + 1)}
            aria-label={t('appointments.slotPicker.nextWeek')}
            data-testid="slot-picker-next"
          >
            <IconChevronRight size={18} />
          </ActionIcon>
          {slots.isFetching ? <Loader size="xs" /> : null}
        </Group>
        <Group gap={6} wrap="nowrap">
          <IconClock size={16} aria-hidden />
          <Text size="xs" c="gray.7" data-testid="slot-picker-zone">
            {showsZone
              ? t('appointments.slotPicker.zoneDiffers', {
                  zone: formatTimeZoneName(viewerTimeZone, language),
                  doctorZone: formatTimeZoneName(doctorTimeZone, language),
                })
              : t('appointments.slotPicker.zone', { zone: formatTimeZoneName(viewerTimeZone, language) })}
          </Text>
        </Group>
      </div>
      {slots.isError ? (
        <Alert color="red" variant="light" data-testid="slot-picker-error">
          {errorText(slots.error)}
        </Alert>
      ) : null}
      {!isLoadingWeek && !slots.isError && isEmpty ? (
        <Alert color="gray" variant="light" data-testid="slot-picker-empty">
          {t('appointments.slotPicker.empty')}
        </Alert>
      ) : null}
      {!isEmpty ? (
        <div className={classes.week}>
          {days.map((day) => {
            const list = byDay.get(day) ?? [];
            return (
              <div
                key={day}
                className={classes.day}
                data-empty={list.length === 0 || undefined}
                data-testid="slot-picker-day"
                data-day={day}
              >
                <div className={classes.dayName}>{formatDay(day, language)}</div>
                {list.length === 0 ? (
                  <Text size="xs" c="gray.7">
                    —
                  </Text>
                ) : (
                  <div className={classes.slots}>
                    {list.map((slot) => (
                      <Button
                        key={slot.startsAt}
                        variant={slot.startsAt === selected ? 'filled' : 'light'}
                        aria-pressed={slot.startsAt === selected}
                        size="xs"
                        className={classes.slot}
                        disabled={!onPick}
                        onClick={() => onPick?.(slot)}
                        data-testid="slot-picker-slot"
                        data-starts-at={slot.startsAt}
                      >
                        {formatTime(slot.startsAt, language, viewerTimeZone)}
                      </Button>
                    ))}
                  </div>
                )}
              </div>
            );
          })}
        </div>
      ) : null}
    </Stack>
  );
}
