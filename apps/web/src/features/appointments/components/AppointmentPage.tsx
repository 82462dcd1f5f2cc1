import '@mantine/core/styles/Anchor.layer.css';
import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/Paper.layer.css';
import { Alert, Anchor, Button, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import {
  IconArrowLeft,
  IconCalendarPlus,
  IconCalendarTime,
  IconDeviceLaptop,
  IconFileText,
  IconRepeat,
  IconSearch,
  IconVideo,
  IconX,
} from '@tabler/icons-react';
import type { Appointment } from '@telemedicina/shared/appointment';
import { visitCheckInOpensMinutesBefore } from '@telemedicina/shared/visit-timing';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useParams } from 'react-router';
import { SectionForbidden } from '../../../components/section-page/SectionForbidden';
import { SectionHeader } from '../../../components/section-page/SectionHeader';
import pageClasses from '../../../components/section-page/SectionPage.module.css';
import { formatLongDateTime, useViewerTimeZone, zonesDiffer } from '../../../components/slot-picker';
import { WaitlistControl } from '../../../components/waitlist';
import { useApiErrorText } from '../../../lib/error-text';
import { useMe } from '../../../lib/session';
import { useHasAnyPermission, useLanguage, usePermissions } from '../../../lib/ui-state';
import { calendarUrl, useAppointment } from '../api/appointments';
import { appointmentActions, capacityFor } from '../capacity';
import { AppointmentStatusBadge } from '../../../components/appointment-status/AppointmentStatusBadge';
import { AppointmentReason } from './AppointmentReason';
import classes from './Appointments.module.css';
import { CancelAppointmentModal } from './CancelAppointmentModal';
import { RescheduleModal } from './RescheduleModal';
import { formatTimeZoneName } from '../../../lib/clock';

export interface AppointmentPageProps {
  /** What other features add under the appointment (the clinical note, the patient's vitals), composed in `app/`. */
  renderExtra?: (appointment: Appointment) => ReactNode;
}

/**
 * `/admin/appointments/:id`: when (in the viewer's zone, and the doctor's when it differs), who,
 * status and reason; cancel and reschedule for those the server lets act, and "Add to calendar".
 */
export function AppointmentPage({ renderExtra }: AppointmentPageProps = {}) {
  const { t } = useTranslation();
  const isAllowed = useHasAnyPermission(['appointments.read.own', 'appointments.read.any']);
  return (
    <div className={pageClasses.page} data-testid="appointment-page">
      {isAllowed ? (
        <AppointmentView renderExtra={renderExtra} />
      ) : (
        <>
          <SectionHeader title={t('admin.nav.appointments')} description={t('admin.sections.appointments')} />
          <SectionForbidden />
        </>
      )}
    </div>
  );
}

function AppointmentView({ renderExtra }: AppointmentPageProps) {
  const { t } = useTranslation();
  const language = useLanguage();
  const errorText = useApiErrorText();
  const { id = '' } = useParams();
  const viewerZone = useViewerTimeZone();
  const viewerId = useMe().data?.user.id ?? '';
  const permissions = usePermissions();
  const appointment = useAppointment(id);
  const [dialog, setDialog] = useState<'cancel' | 'reschedule' | null>(null);
  // The patient's pages live in the portal: its own links stay there.
  const area = useLocation().pathname.toLowerCase().startsWith('/portal') ? '/portal' : '/admin';
  // Re-read every half minute: the main action changes when check-in opens, without a reload.
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 30_000);
    return () => window.clearInterval(timer);
  }, []);

  const back = (
    <Anchor component={Link} to={`${area}/appointments`} size="sm" data-testid="appointment-back">
      <Group gap={4} component="span">
        <IconArrowLeft size={16} />
        {t('appointments.back')}
      </Group>
    </Anchor>
  );

  if (appointment.isPending) {
    return (
      <Stack gap="md">
        {back}
        <Loader />
      </Stack>
    );
  }
  if (appointment.isError) {
    return (
      <Stack gap="md">
        {back}
        <Alert color="red" variant="light" data-testid="appointment-error">
          {errorText(appointment.error)}
        </Alert>
      </Stack>
    );
  }
  const item = appointment.data;
  const capacity = capacityFor({ userId: viewerId, permissions }, item);
  const actions = appointmentActions(capacity, item);
  const doctorZone = item.doctor.timeZone;
  // Before check-in opens, the main action is preparing (device check); joining comes first only
  // once the waiting room is open (never the main button days before the visit).
  const isCheckInOpen =
    item.status === 'in_progress' ||
    now >= new Date(item.startsAt).getTime() - visitCheckInOpensMinutesBefore * 60_000;

  const joinButton = (
    <Button
      key="join"
      component={Link}
      to={`${area}/visits/${item.id}`}
      variant={isCheckInOpen ? 'filled' : 'default'}
      leftSection={<IconVideo size={18} />}
      data-testid="appointment-join-visit"
    >
      {t('visit.join')}
    </Button>
  );
  const checkButton = (
    <Button
      key="check"
      component={Link}
      to={`${area}/visits/${item.id}/check`}
      variant={isCheckInOpen ? 'default' : 'filled'}
      leftSection={<IconDeviceLaptop size={18} />}
      data-testid="appointment-check-devices"
    >
      {t('visit.checkDevices')}
    </Button>
  );

  return (
    <Stack gap="lg">
      {back}
      <Group justify="space-between" align="flex-start" gap="sm">
        <Stack gap={4} style={{ minWidth: 0, flex: '1 1 320px' }}>
          <Title order={1} className={pageClasses.title} data-testid="appointment-when">
            {formatLongDateTime(item.startsAt, language, viewerZone)}
          </Title>
          {zonesDiffer(viewerZone, doctorZone, new Date(item.startsAt)) ? (
            <Text size="sm" c="gray.7" data-testid="appointment-doctor-time">
              {t('appointments.zones', {
                zone: formatTimeZoneName(viewerZone, language),
                time: formatLongDateTime(item.startsAt, language, doctorZone),
                doctorZone: formatTimeZoneName(doctorZone, language),
              })}
            </Text>
          ) : null}
        </Stack>
        <AppointmentStatusBadge status={item.status} />
      </Group>
      <Paper withBorder radius="md" p="md">
        <dl className={pageClasses.facts}>
          <dt>{t('appointments.doctor')}</dt>
          <dd data-testid="appointment-doctor">{item.doctor.name}</dd>
          <dt>{t('appointments.patient')}</dt>
          <dd data-testid="appointment-patient">{item.patient.name}</dd>
          <dt>{t('appointments.columns.reason')}</dt>
          <dd className={classes.reason} data-testid="appointment-reason">
            <AppointmentReason appointment={item} />
          </dd>
          {item.status === 'cancelled' && item.cancelledBy ? (
            <>
              <dt>{t('appointments.cancelledBy.label')}</dt>
              {/* Worded for the reader: "Usted canceló la cita" or who did, in the third person. */}
              <dd data-testid="appointment-cancelled-by">
                {item.cancelledBy === capacity
                  ? t('appointments.cancelledBy.you')
                  : t(`appointments.cancelledBy.${item.cancelledBy}`)}
              </dd>
            </>
          ) : null}
          {item.status === 'cancelled' ? (
            <>
              <dt>{t('appointments.cancelledReason')}</dt>
              <dd className={classes.reason}>{item.cancellationReason ?? '—'}</dd>
            </>
          ) : null}
        </dl>
      </Paper>
      <div className={classes.actions}>
        {isVisitOpen(item.status)
          ? isCheckInOpen
            ? [joinButton, checkButton]
            : [checkButton, joinButton]
          : null}
        {viewerId === item.doctor.id && permissions.includes('records.read') ? (
          <Button
            component={Link}
            to={`/admin/patients/${item.patient.id}`}
            variant="default"
            leftSection={<IconFileText size={18} />}
            data-testid="appointment-open-chart"
          >
            {t('records.openChart')}
          </Button>
        ) : null}
        {/* Only while the visit is ahead: a held, missed or cancelled visit has no place in a calendar. */}
        {item.status === 'requested' || item.status === 'confirmed' ? (
          <Button
            component="a"
            href={calendarUrl(item.id)}
            download
            variant="default"
            leftSection={<IconCalendarPlus size={18} />}
            data-testid="appointment-calendar"
          >
            {t('appointments.addToCalendar')}
          </Button>
        ) : null}
        {actions.canReschedule ? (
          <Button
            variant="default"
            leftSection={<IconCalendarTime size={18} />}
            onClick={() => setDialog('reschedule')}
            data-testid="appointment-reschedule"
          >
            {t('appointments.reschedule.open')}
          </Button>
        ) : null}
        {actions.canCancel ? (
          <Button
            color="red"
            variant="light"
            leftSection={<IconX size={18} />}
            onClick={() => setDialog('cancel')}
            data-testid="appointment-cancel"
          >
            {t('appointments.cancel.open')}
          </Button>
        ) : null}
      </div>
      {item.status === 'cancelled' && capacity === 'patient' ? (
        <Alert
          color="gray"
          variant="light"
          title={t('appointments.cancelledNext.title')}
          data-testid="appointment-cancelled-next"
        >
          <Text size="sm" mb="sm">
            {t('appointments.cancelledNext.text')}
          </Text>
          <Group gap="sm">
            <Button
              component={Link}
              to={`${area}/doctors/${encodeURIComponent(item.doctor.id)}`}
              leftSection={<IconRepeat size={18} />}
              data-testid="appointment-book-again"
            >
              {t('appointments.cancelledNext.bookAgain', { name: item.doctor.name })}
            </Button>
            <Button
              component={Link}
              to={`${area}/doctors`}
              variant="default"
              leftSection={<IconSearch size={18} />}
              data-testid="appointment-find-doctor"
            >
              {t('appointments.cancelledNext.findDoctor')}
            </Button>
          </Group>
        </Alert>
      ) : null}
      {renderExtra?.(item)}
      {capacity === 'patient' && actions.canReschedule ? (
        <WaitlistControl
          doctorId={item.doctor.id}
          viewerTimeZone={viewerZone}
          appointmentStartsAt={item.startsAt}
          variant="inline"
        />
      ) : null}
      {actions.canCancel ? (
        <CancelAppointmentModal
          opened={dialog === 'cancel'}
          appointmentId={item.id}
          reasonRequired={actions.reasonRequired}
          onClose={() => setDialog(null)}
        />
      ) : null}
      {actions.canReschedule ? (
        <RescheduleModal
          opened={dialog === 'reschedule'}
          appointment={item}
          viewerTimeZone={viewerZone}
          onClose={() => setDialog(null)}
        />
      ) : null}
    </Stack>
  );
}

/** A video visit can still be joined (or its devices checked) until the appointment is final. */
function isVisitOpen(status: string): boolean {
  return (
    status === 'requested' || status === 'confirmed' || status === 'checked_in' || status === 'in_progress'
  );
}
