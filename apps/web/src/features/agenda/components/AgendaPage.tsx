import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/ActionIcon.layer.css';
import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/Combobox.layer.css';
import '@mantine/core/styles/Popover.layer.css';
import '@mantine/core/styles/SegmentedControl.layer.css';
import '@mantine/core/styles/InlineInput.layer.css';
import '@mantine/core/styles/Switch.layer.css';
import {
  ActionIcon,
  Alert,
  Button,
  Group,
  Loader,
  SegmentedControl,
  Select,
  Switch,
  Text,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconChevronLeft, IconChevronRight, IconClock } from '@tabler/icons-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { SectionForbidden } from '../../../components/section-page/SectionForbidden';
import { SectionHeader } from '../../../components/section-page/SectionHeader';
import pageClasses from '../../../components/section-page/SectionPage.module.css';
import { useApiErrorText } from '../../../lib/error-text';
import { useMe } from '../../../lib/session';
import { browserTimeZone, timeZoneOffset } from '../../../lib/time-zones';
import { useHasAnyPermission, useLanguage } from '../../../lib/ui-state';
import { todayIn } from '../../../lib/zoned-time';
import { useAgendaAppointments } from '../api/get-agenda-appointments';
import { useAgendaDoctor } from '../api/get-agenda-doctor';
import { useDoctorOptions } from '../../../lib/doctor-options';
import { useFreeSlots } from '../api/get-free-slots';
import { fetchWindow, readAgendaDate, shiftDate, visibleDays, type AgendaView } from '../agenda-layout';
import { AgendaGrid } from './AgendaGrid';
import { AgendaList } from './AgendaList';
import { ClinicDay } from './ClinicDay';
import classes from './Agenda.module.css';
import { formatRangeLabel } from './agenda-format';
import { formatTimeZoneName } from '../../../lib/clock';

/**
 * `/admin/agenda`: a doctor's appointments on a day or week time grid, in the DOCTOR's zone (labelled,
 * with a note when the viewer's own zone differs), free times shaded behind them. Doctors see
 * their own; staff and administrators (`appointments.read.any`) land on the clinic's day (every
 * doctor side by side, {@link ClinicDay}) and may pick one doctor for their week. View, date, doctor
 * and "show cancelled" live in the address.
 */
export function AgendaPage() {
  const { t } = useTranslation();
  const isAllowed = useHasAnyPermission(['visits.host', 'appointments.read.any']);
  return (
    <div className={pageClasses.page} data-testid="agenda-page">
      {isAllowed ? (
        <Agenda />
      ) : (
        <>
          <SectionHeader title={t('admin.nav.agenda')} description={t('admin.sections.agenda')} />
          <SectionForbidden />
        </>
      )}
    </div>
  );
}

function Agenda() {
  const { t } = useTranslation();
  const language = useLanguage();
  const errorText = useApiErrorText();
  const me = useMe().data?.user;
  const canPickDoctor = useHasAnyPermission(['appointments.read.any']);
  const isHost = useHasAnyPermission(['visits.host']);
  const isPhone = useMediaQuery('(max-width: 36em)', false) ?? false;
  const [searchParams, setSearchParams] = useSearchParams();

  const requestedDoctor = searchParams.get('doctorId');
  const ownId = isHost ? (me?.id ?? null) : null;
  const doctorId = canPickDoctor ? requestedDoctor || ownId : ownId;
  const view: AgendaView = searchParams.get('view') === 'day' ? 'day' : 'week';
  const showCancelled = searchParams.get('cancelled') === '1';

  const doctor = useAgendaDoctor(doctorId);
  const doctorOptions = useDoctorOptions(canPickDoctor);
  const viewerZone = me?.timeZone || browserTimeZone();
  // The doctor's zone (the viewer's own for a doctor whose profile does not exist yet).
  const zone = doctor.data?.timeZone ?? viewerZone;
  const today = todayIn(zone);
  const date = readAgendaDate(searchParams.get('date'), today);
  const days = useMemo(() => visibleDays(date, view), [date, view]);
  const range = useMemo(() => fetchWindow(days, zone), [days, zone]);
  const isZoneKnown = doctor.isSuccess || (doctorId !== null && doctorId === me?.id && doctor.isError);
  const request = doctorId !== null && isZoneKnown ? { doctorId, ...range } : null;
  const appointments = useAgendaAppointments(request);
  const slots = useFreeSlots(request);

  const update = (changes: Record<string, string | null>) =>
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [name, value] of Object.entries(changes)) {
          if (value === null || value === '') {
            next.delete(name);
          } else {
            next.set(name, value);
          }
        }
        return next;
      },
      { replace: false },
    );

  const visible = (appointments.data ?? []).filter(
    (appointment) => showCancelled || appointment.status !== 'cancelled',
  );
  const zoneDiffers = viewerZone !== zone && timeZoneOffset(viewerZone) !== timeZoneOffset(zone);

  const toolbar = (
    <div className={classes.toolbar}>
      <div className={classes.navigation}>
        <ActionIcon
          variant="default"
          size="lg"
          aria-label={view === 'day' ? t('agenda.previousDay') : t('agenda.previousWeek')}
          onClick={() => update({ date: shiftDate(date, view, -1) })}
          data-testid="agenda-previous"
        >
          <IconChevronLeft size={18} />
        </ActionIcon>
        <Button
          variant="default"
          onClick={() => update({ date: null })}
          disabled={date === today && !searchParams.has('date')}
          data-testid="agenda-today"
        >
          {t('agenda.today')}
        </Button>
        <ActionIcon
          variant="default"
          size="lg"
          aria-label={view === 'day' ? t('agenda.nextDay') : t('agenda.nextWeek')}
          onClick={() => update({ date: shiftDate(date, view, 1) })}
          data-testid="agenda-next"
        >
          <IconChevronRight size={18} />
        </ActionIcon>
        <Text component="h2" className={classes.range} data-testid="agenda-range" aria-live="polite">
          {formatRangeLabel(days, language)}
        </Text>
      </div>
      <Group gap="sm" align="flex-end">
        <SegmentedControl
          aria-label={t('agenda.viewLabel')}
          value={view}
          onChange={(value) => update({ view: value === 'day' ? 'day' : null })}
          data={[
            { value: 'day', label: t('agenda.view.day') },
            { value: 'week', label: t('agenda.view.week') },
          ]}
          data-testid="agenda-view"
        />
      </Group>
    </div>
  );

  return (
    <>
      <SectionHeader
        title={t('admin.nav.agenda')}
        description={
          doctorId === null && canPickDoctor ? t('agenda.day.description') : t('admin.sections.agenda')
        }
      >
        {canPickDoctor ? (
          <Select
            className={classes.picker}
            label={t('agenda.doctor')}
            placeholder={t('agenda.day.allDoctors')}
            clearable
            clearButtonProps={{ 'aria-label': t('agenda.day.allDoctors') }}
            searchable
            nothingFoundMessage={t('agenda.noDoctors')}
            data={(doctorOptions.data ?? []).map((option) => ({ value: option.id, label: option.name }))}
            value={doctorId}
            onChange={(value) => update({ doctorId: value })}
            comboboxProps={{ withinPortal: true }}
            data-testid="agenda-doctor"
          />
        ) : null}
      </SectionHeader>
      {doctorId === null && canPickDoctor ? (
        <ClinicDay />
      ) : doctorId === null ? (
        <Alert variant="light" color="blue" data-testid="agenda-choose-doctor">
          {t('agenda.chooseDoctor')}
        </Alert>
      ) : (
        <>
          {toolbar}
          <div className={classes.zone} data-testid="agenda-zone">
            <IconClock size={16} style={{ flex: 'none', marginTop: 2 }} />
            <Text size="sm" c="gray.7">
              {t('agenda.zone', {
                zone: formatTimeZoneName(zone, language),
                offset: timeZoneOffset(zone),
              })}
              {zoneDiffers ? (
                <>
                  {' '}
                  <span data-testid="agenda-zone-differs">
                    {t('agenda.zoneDiffers', { zone: formatTimeZoneName(viewerZone, language) })}
                  </span>
                </>
              ) : null}
            </Text>
          </div>
          {doctor.isError && doctorId !== me?.id ? (
            <Alert color="red" variant="light" data-testid="agenda-error">
              {errorText(doctor.error)}
            </Alert>
          ) : appointments.isError ? (
            <Alert color="red" variant="light" data-testid="agenda-error">
              <Group gap="sm" justify="space-between">
                <span>{errorText(appointments.error)}</span>
                <Button size="xs" variant="light" onClick={() => void appointments.refetch()}>
                  {t('agenda.retry')}
                </Button>
              </Group>
            </Alert>
          ) : appointments.isPending ? (
            <Loader data-testid="agenda-loading" />
          ) : (
            <>
              {isPhone ? (
                <AgendaList appointments={visible} days={days} timeZone={zone} today={today} />
              ) : (
                <AgendaGrid
                  appointments={visible}
                  freeSlots={slots.data ?? []}
                  days={days}
                  timeZone={zone}
                  today={today}
                />
              )}
              <div className={classes.legend}>
                {!isPhone ? (
                  <span>
                    <span className={classes.legendSwatch} aria-hidden />
                    {t('agenda.free')}
                  </span>
                ) : null}
                <Switch
                  size="sm"
                  label={t('agenda.showCancelled')}
                  checked={showCancelled}
                  onChange={(event) => update({ cancelled: event.currentTarget.checked ? '1' : null })}
                  data-testid="agenda-show-cancelled"
                />
                <span data-testid="agenda-count">{t('agenda.count', { count: visible.length })}</span>
              </div>
            </>
          )}
        </>
      )}
    </>
  );
}
