import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/SegmentedControl.layer.css';
import { NativeSelect, SegmentedControl, Stack, Text } from '@mantine/core';
import { appointmentStatuses, type Appointment } from '@telemedicina/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListTable, type ListTableColumn } from '../../../components/list-table';
import { SectionForbidden } from '../../../components/section-page/SectionForbidden';
import { SectionHeader } from '../../../components/section-page/SectionHeader';
import pageClasses from '../../../components/section-page/SectionPage.module.css';
import { useViewerTimeZone } from '../../../components/slot-picker';
import { formatDateTime } from '../../../lib/format';
import { useMe } from '../../../lib/session';
import { useHasAnyPermission, useLanguage } from '../../../lib/ui-state';
import { useListParams } from '../../../lib/use-list-params';
import { useAppointments } from '../api/appointments';
import { AppointmentStatusBadge } from './AppointmentStatusBadge';
import classes from './Appointments.module.css';

const periods = ['upcoming', 'past', 'all'] as const;
type Period = (typeof periods)[number];

/**
 * `/admin/appointments`: the viewer's appointments (all of them with `appointments.read.any`),
 * upcoming first or past most recent first, filtered by status; a row opens the appointment.
 */
export function AppointmentsPage() {
  const { t } = useTranslation();
  const isAllowed = useHasAnyPermission(['appointments.read.own', 'appointments.read.any']);
  return (
    <div className={pageClasses.page} data-testid="appointments-page">
      {isAllowed ? (
        <AppointmentsList />
      ) : (
        <>
          <SectionHeader title={t('admin.nav.appointments')} description={t('admin.sections.appointments')} />
          <SectionForbidden />
        </>
      )}
    </div>
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

function AppointmentsList() {
  const { t } = useTranslation();
  const language = useLanguage();
  const viewerZone = useViewerTimeZone();
  const viewerId = useMe().data?.user.id;
  const [now] = useState(() => {
    const date = new Date();
    date.setSeconds(0, 0);
    return date.toISOString();
  });
  const params = useListParams({
    sorts: ['startsAt'],
    defaultSort: 'startsAt',
    filters: { status: appointmentStatuses, period: ['past', 'all'] },
  });
  const period: Period = params.filters.period ?? 'upcoming';
  const result = useAppointments({
    page: params.page,
    pageSize: params.pageSize,
    sort: 'startsAt',
    // Upcoming: the next one first; past (and everything): the most recent first.
    order: period === 'upcoming' ? 'asc' : 'desc',
    status: params.filters.status,
    from: period === 'upcoming' ? now : undefined,
    to: period === 'past' ? now : undefined,
  });

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
      render: (appointment) => <AppointmentStatusBadge status={appointment.status} />,
    },
    {
      accessor: 'reason',
      title: t('appointments.columns.reason'),
      visibleFrom: 'md',
      render: (appointment) => (
        <Text size="sm" lineClamp={2} className={classes.reason}>
          {appointment.reason ?? '—'}
        </Text>
      ),
    },
  ];

  const toolbar = (
    <>
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
    <>
      <SectionHeader title={t('admin.nav.appointments')} description={t('admin.sections.appointments')} />
      <ListTable
        label={t('admin.nav.appointments')}
        testId="appointments-table"
        records={result.data?.data}
        total={result.data?.total}
        columns={columns}
        params={params}
        isLoading={result.isPending}
        isFetching={result.isFetching && !result.isPending}
        error={result.isError ? result.error : undefined}
        onRetry={() => void result.refetch()}
        emptyText={period === 'past' ? t('appointments.emptyPast') : t('appointments.empty')}
        getRowHref={(appointment) => `/admin/appointments/${appointment.id}`}
        toolbar={toolbar}
      />
    </>
  );
}
