import '@mantine/core/styles/Avatar.layer.css';
import '@mantine/core/styles/Badge.layer.css';
import { Avatar, Badge, Button, Text, Title } from '@mantine/core';
import {
  IconCalendarPlus,
  IconCalendarRepeat,
  IconClockHour4,
  IconDeviceLaptop,
  IconVideo,
} from '@tabler/icons-react';
import type { Appointment } from '@telemedicina/shared/appointment';
import type { DoctorProfile } from '@telemedicina/shared/doctors';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useClock } from '../../../lib/use-clock';
import { calendarFileUrl } from '../api/portal-visits';
import { checkInOpensAt, formatCountdown, visitMoment } from '../next-visit';
import classes from './PortalHomePage.module.css';

/**
 * The patient's next visit: when (in their account's zone, the zone named in words), with whom, how
 * long until it, and the one right action for the moment (`visitMoment`): days or hours ahead,
 * preparing (device check) with the calendar file and a way to change or cancel; from check-in on,
 * entering the video visit — never the main button before the waiting room opens.
 */
export function NextVisitCard({
  appointment,
  doctor,
  now,
  extra,
}: {
  appointment: Appointment;
  /** Something to do before this visit that another feature knows of (shown above the actions). */
  extra?: ReactNode;
  /** The doctor's public profile (photo, specialties), when it has come. */
  doctor?: DoctorProfile | undefined;
  now: Date;
}) {
  const { t } = useTranslation();
  const clock = useClock();
  const moment = visitMoment(appointment, now);
  const isJoinable = moment !== 'ahead';
  const specialties = doctor?.specialties.map((item) =>
    clock.language === 'en' ? item.name.en : item.name.es,
  );
  const visitPath = `/portal/visits/${encodeURIComponent(appointment.id)}`;
  const appointmentPath = `/portal/appointments/${encodeURIComponent(appointment.id)}`;
  return (
    <section
      className={classes.nextCard}
      aria-labelledby="portal-next-title"
      data-testid="portal-next-visit"
      data-moment={moment}
    >
      <div className={classes.nextHead}>
        <Title order={2} size="h4" id="portal-next-title" className={classes.nextTitle}>
          {t('portal.next.title')}
        </Title>
        <Badge
          variant={isJoinable ? 'filled' : 'light'}
          color={isJoinable ? 'green' : 'clinic'}
          tt="none"
          size="lg"
          leftSection={<IconClockHour4 size={14} aria-hidden />}
          data-testid="portal-next-countdown"
        >
          {moment === 'underWay'
            ? t('portal.next.underWay')
            : formatCountdown(appointment.startsAt, now, clock.language, clock.timeZone)}
        </Badge>
      </div>
      <Text className={classes.nextWhen} data-testid="portal-next-when">
        {clock.longDateTime(appointment.startsAt)}
      </Text>
      <Text size="sm" c="gray.7" data-testid="portal-next-zone">
        {clock.zoneName()}
      </Text>
      <div className={classes.doctor}>
        <Avatar
          src={doctor?.photoUrl ?? null}
          name={appointment.doctor.name}
          color="initials"
          size={48}
          alt=""
          aria-hidden
        />
        <div className={classes.doctorText}>
          <Text fw={650} data-testid="portal-next-doctor">
            {appointment.doctor.name}
          </Text>
          {specialties && specialties.length > 0 ? (
            <Text size="sm" c="gray.7">
              {specialties.join(' · ')}
            </Text>
          ) : null}
        </div>
      </div>
      <Text size="sm" className={classes.nextHint} data-testid="portal-next-hint">
        {isJoinable
          ? t('portal.next.roomOpen')
          : t('portal.next.opensAt', { time: clock.time(checkInOpensAt(appointment)) })}
      </Text>
      {extra}
      <div className={classes.actions}>
        {isJoinable ? (
          <>
            <Button
              component={Link}
              to={visitPath}
              size="md"
              color="green"
              leftSection={<IconVideo size={20} />}
              data-testid="portal-next-join"
            >
              {t('portal.next.join')}
            </Button>
            <Button component={Link} to={appointmentPath} variant="subtle" data-testid="portal-next-open">
              {t('portal.next.details')}
            </Button>
          </>
        ) : (
          <>
            <Button
              component={Link}
              to={`${visitPath}/check`}
              size="md"
              leftSection={<IconDeviceLaptop size={20} />}
              data-testid="portal-next-prepare"
            >
              {t('portal.next.prepare')}
            </Button>
            <Button
              component="a"
              href={calendarFileUrl(appointment.id)}
              download
              variant="default"
              leftSection={<IconCalendarPlus size={18} />}
              data-testid="portal-next-calendar"
            >
              {t('portal.next.addToCalendar')}
            </Button>
            <Button
              component={Link}
              to={appointmentPath}
              variant="subtle"
              leftSection={<IconCalendarRepeat size={18} />}
              data-testid="portal-next-change"
            >
              {t('portal.next.change')}
            </Button>
          </>
        )}
      </div>
    </section>
  );
}
