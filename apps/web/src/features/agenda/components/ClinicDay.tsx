import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/ActionIcon.layer.css';
import '@mantine/core/styles/Badge.layer.css';
import '@mantine/core/styles/Input.layer.css';
import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Loader,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconChevronLeft, IconChevronRight, IconCircleCheck, IconClock } from '@tabler/icons-react';
import type { Appointment } from '@telemedicina/shared/appointment';
import type { AppointmentStatus } from '@telemedicina/shared/common';
import type { ClinicDayDoctor } from '@telemedicina/shared/reception';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { appointmentStatusColors } from '../../../lib/appointment-status';
import { useApiErrorText } from '../../../lib/error-text';
import { useClock } from '../../../lib/use-clock';
import { useHasAnyPermission } from '../../../lib/ui-state';
import { addCalendarDays, isCalendarDate, todayIn } from '../../../lib/zoned-time';
import { useClinicDay } from '../api/get-clinic-day';
import { formatRangeLabel } from './agenda-format';
import classes from './ClinicDay.module.css';
import { ReceptionBookingModal, type BookingTarget } from './ReceptionBookingModal';

/** One line of a doctor's column: an appointment, or a run of free times between appointments. */
type DayItem =
  | { kind: 'appointment'; startsAt: string; appointment: ClinicDayDoctor['appointments'][number] }
  | { kind: 'free'; startsAt: string; slots: { startsAt: string; endsAt: string }[] };

/** Appointments and free times in time order; free times that follow one another form one line. */
export function itemsOf(doctor: ClinicDayDoctor): DayItem[] {
  const entries = [
    ...doctor.appointments.map((appointment) => ({
      startsAt: appointment.startsAt,
      appointment,
      slot: null,
    })),
    ...doctor.freeSlots.map((slot) => ({ startsAt: slot.startsAt, appointment: null, slot })),
  ].sort(
    // Same start: the appointment (maybe cancelled) first, then the free time it left.
    (a, b) =>
      a.startsAt.localeCompare(b.startsAt) ||
      (a.appointment === null ? 1 : 0) - (b.appointment === null ? 1 : 0),
  );
  const items: DayItem[] = [];
  for (const entry of entries) {
    if (entry.appointment !== null) {
      items.push({ kind: 'appointment', startsAt: entry.startsAt, appointment: entry.appointment });
      continue;
    }
    const last = items.at(-1);
    if (last?.kind === 'free') {
      last.slots.push(entry.slot);
    } else {
      items.push({ kind: 'free', startsAt: entry.startsAt, slots: [entry.slot] });
    }
  }
  return items;
}

/**
 * Reception's day, so reception sees the whole clinic at once: every doctor of the clinic on one day, a column each, with their
 * appointments (patient, time, where the patient is: not arrived, in the waiting room, in the
 * call, done, no-show, cancelled) and their free times, which open the booking form. Times are in
 * the viewer's account zone (one clock). On a phone the columns are a swipeable row, one doctor at
 * a time, with the doctors' names as tabs above. The date lives in the address.
 */
export function ClinicDay() {
  const { t } = useTranslation();
  const clock = useClock();
  const errorText = useApiErrorText();
  const canBook = useHasAnyPermission(['appointments.book.any']);
  const isPhone = useMediaQuery('(max-width: 48em)', false) ?? false;
  const [searchParams, setSearchParams] = useSearchParams();
  const today = todayIn(clock.timeZone);
  const requested = searchParams.get('date');
  const date = isCalendarDate(requested) ? requested : today;
  const day = useClinicDay(date);
  const [target, setTarget] = useState<BookingTarget | null>(null);
  const [booked, setBooked] = useState<Appointment | null>(null);
  const columnsRef = useRef<HTMLDivElement>(null);

  const goTo = (next: string | null) => {
    setBooked(null);
    setSearchParams(
      (current) => {
        const params = new URLSearchParams(current);
        if (next === null || next === today) {
          params.delete('date');
        } else {
          params.set('date', next);
        }
        return params;
      },
      { replace: false },
    );
  };

  const doctors = day.data?.doctors ?? [];
  const counts = {
    appointments: doctors.reduce(
      (sum, doctor) => sum + doctor.appointments.filter((entry) => entry.status !== 'cancelled').length,
      0,
    ),
    free: doctors.reduce((sum, doctor) => sum + doctor.freeSlots.length, 0),
  };

  const showColumn = (doctorId: string) => {
    const column = columnsRef.current?.querySelector<HTMLElement>(`[data-doctor-id="${doctorId}"]`);
    column?.scrollIntoView({ behavior: 'smooth', block: 'nearest', inline: 'start' });
    column?.focus({ preventScroll: true });
  };

  return (
    <section className={classes.day} aria-labelledby="clinic-day-heading" data-testid="clinic-day">
      <div className={classes.toolbar}>
        <div className={classes.navigation}>
          <ActionIcon
            variant="default"
            size="lg"
            aria-label={t('agenda.previousDay')}
            onClick={() => goTo(addCalendarDays(date, -1))}
            data-testid="clinic-day-previous"
          >
            <IconChevronLeft size={18} />
          </ActionIcon>
          <Button
            variant="default"
            onClick={() => goTo(null)}
            disabled={date === today}
            data-testid="clinic-day-today"
          >
            {t('agenda.today')}
          </Button>
          <ActionIcon
            variant="default"
            size="lg"
            aria-label={t('agenda.nextDay')}
            onClick={() => goTo(addCalendarDays(date, 1))}
            data-testid="clinic-day-next"
          >
            <IconChevronRight size={18} />
          </ActionIcon>
          <TextInput
            type="date"
            className={classes.dateInput}
            aria-label={t('agenda.day.pickDate')}
            value={date}
            onChange={(event) => {
              const value = event.currentTarget.value;
              if (isCalendarDate(value)) {
                goTo(value);
              }
            }}
            data-testid="clinic-day-date"
          />
        </div>
        <Text
          component="h2"
          id="clinic-day-heading"
          className={classes.heading}
          aria-live="polite"
          data-testid="clinic-day-heading"
        >
          {formatRangeLabel([date], clock.language)}
        </Text>
      </div>
      <div className={classes.summary}>
        <IconClock size={16} aria-hidden style={{ flex: 'none' }} />
        <Text size="sm" c="gray.7" data-testid="clinic-day-zone">
          {t('agenda.day.zone', { zone: clock.zoneName() })}
          {day.data
            ? ` · ${t('agenda.day.summary', { appointments: counts.appointments, free: counts.free })}`
            : ''}
        </Text>
      </div>
      {booked ? (
        <Alert
          color="teal"
          variant="light"
          icon={<IconCircleCheck />}
          withCloseButton
          closeButtonLabel={t('common.close')}
          onClose={() => setBooked(null)}
          className={classes.notice}
          data-testid="clinic-day-booked"
        >
          {t('agenda.day.booked', {
            patient: booked.patient.name,
            time: clock.time(booked.startsAt),
            doctor: booked.doctor.name,
          })}{' '}
          <Anchor component={Link} to={`/admin/appointments/${booked.id}`} size="sm">
            {t('agenda.day.openAppointment')}
          </Anchor>
        </Alert>
      ) : null}
      {day.isError ? (
        <Alert color="red" variant="light" data-testid="clinic-day-error">
          <Group gap="sm" justify="space-between">
            <span>{errorText(day.error)}</span>
            <Button size="xs" variant="light" onClick={() => void day.refetch()}>
              {t('agenda.retry')}
            </Button>
          </Group>
        </Alert>
      ) : day.isPending ? (
        <Loader data-testid="clinic-day-loading" />
      ) : doctors.length === 0 ? (
        <Alert variant="light" color="blue" data-testid="clinic-day-empty">
          {t('agenda.day.noDoctors')}
        </Alert>
      ) : (
        <>
          {isPhone && doctors.length > 1 ? (
            <nav className={classes.doctorTabs} aria-label={t('agenda.day.doctorsLabel')}>
              {doctors.map((doctor) => (
                <Button
                  key={doctor.id}
                  size="compact-sm"
                  variant="light"
                  onClick={() => showColumn(doctor.id)}
                  data-testid="clinic-day-doctor-tab"
                >
                  {doctor.name}
                </Button>
              ))}
            </nav>
          ) : null}
          <div
            ref={columnsRef}
            className={classes.columns}
            style={{ '--clinic-day-columns': doctors.length } as React.CSSProperties}
            data-testid="clinic-day-columns"
          >
            {doctors.map((doctor) => (
              <DoctorColumn
                key={doctor.id}
                doctor={doctor}
                canBook={canBook}
                onBook={(slot) => {
                  setBooked(null);
                  setTarget({ doctor: { id: doctor.id, name: doctor.name }, ...slot });
                }}
              />
            ))}
          </div>
        </>
      )}
      {target ? (
        <ReceptionBookingModal
          target={target}
          onClose={() => setTarget(null)}
          onBooked={(appointment) => {
            setTarget(null);
            setBooked(appointment);
          }}
        />
      ) : null}
    </section>
  );
}

/** Where the patient of an appointment is, in reception's words. */
const stateKeys: Record<AppointmentStatus, `agenda.day.state.${AppointmentStatus}`> = {
  requested: 'agenda.day.state.requested',
  confirmed: 'agenda.day.state.confirmed',
  checked_in: 'agenda.day.state.checked_in',
  in_progress: 'agenda.day.state.in_progress',
  completed: 'agenda.day.state.completed',
  cancelled: 'agenda.day.state.cancelled',
  no_show: 'agenda.day.state.no_show',
};

function DoctorColumn({
  doctor,
  canBook,
  onBook,
}: {
  doctor: ClinicDayDoctor;
  canBook: boolean;
  onBook: (slot: { startsAt: string; endsAt: string }) => void;
}) {
  const { t } = useTranslation();
  const clock = useClock();
  const items = useMemo(() => itemsOf(doctor), [doctor]);
  const headingId = `clinic-day-doctor-${doctor.id}`;
  return (
    <section
      className={classes.column}
      aria-labelledby={headingId}
      data-doctor-id={doctor.id}
      tabIndex={-1}
      data-testid="clinic-day-column"
    >
      <header className={classes.columnHeader}>
        <Text component="h3" id={headingId} className={classes.doctorName} data-testid="clinic-day-doctor">
          {doctor.name}
        </Text>
        {doctor.specialties.length > 0 ? (
          <Text size="xs" c="gray.7" className={classes.specialties}>
            {doctor.specialties.join(' · ')}
          </Text>
        ) : null}
        <Anchor
          component={Link}
          to={`/admin/agenda?doctorId=${encodeURIComponent(doctor.id)}`}
          size="xs"
          data-testid="clinic-day-doctor-week"
        >
          {t('agenda.day.doctorWeek')}
        </Anchor>
      </header>
      {items.length === 0 ? (
        <Text size="sm" c="gray.7" className={classes.nothing}>
          {t('agenda.day.nothing')}
        </Text>
      ) : (
        <ol className={classes.items}>
          {items.map((item) =>
            item.kind === 'appointment' ? (
              <li
                key={item.appointment.id}
                className={classes.appointment}
                data-status={item.appointment.status}
                data-testid="clinic-day-appointment"
              >
                <Text component="span" className={classes.time}>
                  {clock.time(item.appointment.startsAt)}
                </Text>
                <span className={classes.appointmentBody}>
                  <Anchor
                    component={Link}
                    to={`/admin/appointments/${item.appointment.id}`}
                    className={classes.patient}
                    td={item.appointment.status === 'cancelled' ? 'line-through' : undefined}
                    data-testid="clinic-day-patient"
                  >
                    {item.appointment.patient.name}
                  </Anchor>
                  <Badge
                    variant="light"
                    size="sm"
                    tt="none"
                    color={appointmentStatusColors[item.appointment.status]}
                    className={classes.state}
                    data-testid="clinic-day-state"
                  >
                    {t(stateKeys[item.appointment.status])}
                  </Badge>
                </span>
              </li>
            ) : (
              <li key={`free-${item.startsAt}`} className={classes.free}>
                <span className={classes.freeLabel}>{t('agenda.day.free')}</span>
                <span className={classes.freeTimes}>
                  {item.slots.map((slot) =>
                    canBook ? (
                      <button
                        key={slot.startsAt}
                        type="button"
                        className={classes.freeButton}
                        onClick={() => onBook(slot)}
                        data-testid="clinic-day-free"
                        data-starts-at={slot.startsAt}
                      >
                        {clock.time(slot.startsAt)}
                        <VisuallyHidden>{t('agenda.day.bookWith', { doctor: doctor.name })}</VisuallyHidden>
                      </button>
                    ) : (
                      <span
                        key={slot.startsAt}
                        className={classes.freeStatic}
                        data-testid="clinic-day-free"
                        data-starts-at={slot.startsAt}
                      >
                        {clock.time(slot.startsAt)}
                      </span>
                    ),
                  )}
                </span>
              </li>
            ),
          )}
        </ol>
      )}
    </section>
  );
}
