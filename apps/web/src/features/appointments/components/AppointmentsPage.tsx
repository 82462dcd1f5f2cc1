import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/Combobox.layer.css';
import '@mantine/core/styles/Popover.layer.css';
import '@mantine/core/styles/SegmentedControl.layer.css';
import { NativeSelect, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import type { Appointment } from '@telemedicina/shared/appointment';
import { appointmentStatuses } from '@telemedicina/shared/common';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { DateRangeInput, type DateRange } from '../../../components/date-range-input/DateRangeInput';
import { ListPage, ListPageFrame } from '../../../components/list-page';
import type { ListTableColumn } from '../../../components/list-table';
import { useViewerTimeZone } from '../../../components/slot-picker';
import { formatDateTime } from '../../../lib/format';
import { useMe } from '../../../lib/session';
import { useHasAnyPermission, useLanguage } from '../../../lib/ui-state';
import { useListParams } from '../../../lib/use-list-params';
import { addCalendarDays, isCalendarDate, zonedInstant } from '../../../lib/zoned-time';
import { useAppointments } from '../api/appointments';
import { useDoctorOptions } from '../../../lib/doctor-options';
import { AppointmentStatusBadge } from '../../../components/appointment-status/AppointmentStatusBadge';
import { AppointmentReason } from './AppointmentReason';
import classes from './Appointments.module.css';

const periods = ['upcoming', 'past', 'all'] as const;
type Period = (typeof periods)[number];

/**
 * `/admin/appointments`: the viewer's appointments (all of them with `appointments.read.any`),
 * upcoming first or past most recent first, filtered by status, dates and (staff) doctor, searched
 * by doctor or patient name — everything in the address; a row opens the appointment.
 */
export function AppointmentsPage() {
  const { t } = useTranslation();
  return (
    <ListPageFrame
      testId="appointments-page"
      title={t('admin.nav.appointments')}
      description={t('admin.sections.appointments')}
      permissions={['appointments.read.own', 'appointments.read.any']}
    >
      <AppointmentsList />
    </ListPageFrame>
  );
}

/** The other person of an appointment for the viewer: the patient for its doctor, else the doctor. */
export function counterpart(
  appointment: Appointment,
  viewerId: string | undefined,
): 'doctor' | 'patient' | 'both' {
  if (appointment.doctor.id === viewerId) {
    return 'patient';
  }
  if (appointment.patient.id === viewerId) {
    return 'doctor';
  }
  return 'both';
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The instants a list asks for: the period (from now on, or until now) narrowed by an inclusive
 * range of dates in the viewer's zone (from the first day's midnight to the midnight after the last).
 */
export function appointmentWindow(
  period: Period,
  now: string,
  dates: { from: string | undefined; to: string | undefined },
  timeZone: string,
): { from: string | undefined; to: string | undefined } {
  const dateFrom = dates.from ? zonedInstant(dates.from, 0, timeZone).toISOString() : undefined;
  const dateTo = dates.to ? zonedInstant(addCalendarDays(dates.to, 1), 0, timeZone).toISOString() : undefined;
  const later = (a: string | undefined, b: string | undefined) =>
    a === undefined ? b : b === undefined ? a : Date.parse(a) > Date.parse(b) ? a : b;
  const earlier = (a: string | undefined, b: string | undefined) =>
    a === undefined ? b : b === undefined ? a : Date.parse(a) < Date.parse(b) ? a : b;
  return {
    from: later(period === 'upcoming' ? now : undefined, dateFrom),
    to: earlier(period === 'past' ? now : undefined, dateTo),
  };
}

function AppointmentsList() {
  const { t } = useTranslation();
  const language = useLanguage();
  const viewerZone = useViewerTimeZone();
  const viewerId = useMe().data?.user.id;
  const canReadAny = useHasAnyPermission(['appointments.read.any']);
  const [, setSearchParams] = useSearchParams();
  const [now] = useState(() => {
    const date = new Date();
    date.setSeconds(0, 0);
    return date.toISOString();
  });
  const params = useListParams({
    sorts: ['startsAt'],
    defaultSort: 'startsAt',
    filters: { status: appointmentStatuses, period: ['past', 'all'], doctorId: null, from: null, to: null },
  });
  const period: Period = params.filters.period ?? 'upcoming';
  const dateFrom = isCalendarDate(params.filters.from) ? params.filters.from : undefined;
  const dateTo = isCalendarDate(params.filters.to) ? params.filters.to : undefined;
  const doctorId =
    canReadAny && params.filters.doctorId && uuidPattern.test(params.filters.doctorId)
      ? params.filters.doctorId
      : undefined;
  const doctors = useDoctorOptions(canReadAny);
  const [dates, setDates] = useState<DateRange>([dateFrom ?? null, dateTo ?? null]);
  // The address changed from elsewhere (Back, "clear filters"): the picker follows.
  const addressDates = `${dateFrom ?? ''}|${dateTo ?? ''}`;
  const [shownDates, setShownDates] = useState(addressDates);
  if (shownDates !== addressDates) {
    setShownDates(addressDates);
    setDates([dateFrom ?? null, dateTo ?? null]);
  }
  const range = appointmentWindow(period, now, { from: dateFrom, to: dateTo }, viewerZone);
  const result = useAppointments({
    page: params.page,
    pageSize: params.pageSize,
    sort: 'startsAt',
    // Upcoming (or a range of dates): the next one first; past and everything: the most recent first.
    order: period === 'upcoming' || (period === 'all' && dateFrom !== undefined) ? 'asc' : 'desc',
    status: params.filters.status,
    from: range.from,
    to: range.to,
    doctorId,
    q: params.q,
  });

  const handleDates = (next: DateRange) => {
    setDates(next);
    const [from, to] = next;
    if ((from && to) || (!from && !to)) {
      // Both ends (and the period: a range of dates means "all" of them) in one address change.
      setSearchParams((current) => {
        const updated = new URLSearchParams(current);
        for (const [name, value] of [
          ['from', from],
          ['to', to],
        ] as const) {
          if (value) {
            updated.set(name, value);
          } else {
            updated.delete(name);
          }
        }
        if (from) {
          updated.set('period', 'all');
        }
        updated.delete('page');
        return updated;
      });
    }
  };

  const personOf = (appointment: Appointment) => {
    const who = counterpart(appointment, viewerId);
    if (who === 'doctor') {
      return appointment.doctor.name;
    }
    if (who === 'patient') {
      return appointment.patient.name;
    }
    return t('appointments.people', { doctor: appointment.doctor.name, patient: appointment.patient.name });
  };

  const columns: ListTableColumn<Appointment>[] = [
    {
      accessor: 'startsAt',
      title: t('appointments.columns.when'),
      render: (appointment) => (
        <Stack gap={2}>
          <Text size="sm" fw={600} data-testid="appointment-row-when">
            {formatDateTime(appointment.startsAt, language, viewerZone)}
          </Text>
          {/* Phones have no room for the "With" column: the person goes under the time. */}
          <Text size="xs" c="gray.7" hiddenFrom="sm">
            {personOf(appointment)}
          </Text>
        </Stack>
      ),
    },
    {
      accessor: 'person',
      title: t('appointments.columns.with'),
      visibleFrom: 'sm',
      render: (appointment) => (
        <Text size="sm" data-testid="appointment-row-person">
          {personOf(appointment)}
        </Text>
      ),
    },
    {
      accessor: 'status',
      title: t('appointments.columns.status'),
      noWrap: true,
      // The badge keeps its whole label: on phones the date beside it wraps instead.
      render: (appointment) => (
        <div style={{ minWidth: 'max-content' }}>
          <AppointmentStatusBadge status={appointment.status} />
        </div>
      ),
    },
    {
      accessor: 'reason',
      title: t('appointments.columns.reason'),
      visibleFrom: 'md',
      render: (appointment) => (
        <Text size="sm" lineClamp={2} className={classes.reason}>
          <AppointmentReason appointment={appointment} />
        </Text>
      ),
    },
  ];

  const toolbar = (
    <>
      {canReadAny ? (
        <Select
          className={classes.doctorFilter}
          label={t('appointments.filters.doctor')}
          placeholder={t('appointments.filters.allDoctors')}
          data={(doctors.data ?? []).map((doctor) => ({ value: doctor.id, label: doctor.name }))}
          value={doctorId ?? null}
          onChange={(value) => params.setFilter('doctorId', value)}
          searchable
          clearable
          nothingFoundMessage={t('appointments.filters.noDoctors')}
          comboboxProps={{ withinPortal: true }}
          data-testid="appointments-filter-doctor"
        />
      ) : null}
      <DateRangeInput
        className={classes.dates}
        label={t('appointments.filters.dates')}
        placeholder={t('appointments.filters.datesPlaceholder')}
        value={dates}
        onChange={handleDates}
        clearable
        data-testid="appointments-filter-dates"
      />
      <Stack gap={4} className={classes.when}>
        <Text size="sm" fw={600} id="appointments-period-label">
          {t('appointments.filters.period')}
        </Text>
        <SegmentedControl
          aria-labelledby="appointments-period-label"
          value={period}
          onChange={(value) => params.setFilter('period', value === 'past' || value === 'all' ? value : null)}
          data={periods.map((value) => ({ value, label: t(`appointments.period.${value}`) }))}
          data-testid="appointments-period"
        />
      </Stack>
      <NativeSelect
        className={classes.filter}
        label={t('appointments.filters.status')}
        value={params.filters.status ?? ''}
        onChange={(event) =>
          params.setFilter(
            'status',
            appointmentStatuses.find((status) => status === event.currentTarget.value) ?? null,
          )
        }
        data={[
          { value: '', label: t('appointments.filters.allStatuses') },
          ...appointmentStatuses.map((status) => ({
            value: status,
            label: t(`adminDashboard.status.${status}`),
          })),
        ]}
        data-testid="appointments-filter-status"
      />
    </>
  );

  return (
    <ListPage
      title={t('admin.nav.appointments')}
      description={canReadAny ? t('appointments.descriptionAll') : t('admin.sections.appointments')}
      searchPlaceholder={
        canReadAny
          ? t('appointments.filters.searchPlaceholder')
          : t('appointments.filters.searchPlaceholderOwn')
      }
      query={result}
      params={params}
      testId="appointments-table"
      columns={columns}
      emptyText={
        period === 'past'
          ? t('appointments.emptyPast')
          : period === 'all'
            ? t('appointments.emptyAll')
            : t('appointments.empty')
      }
      getRowHref={(appointment) => `/admin/appointments/${appointment.id}`}
      toolbar={toolbar}
    />
  );
}
