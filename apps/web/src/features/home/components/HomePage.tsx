import '@mantine/core/styles/Paper.layer.css';
import { Alert, Button, Group, Paper, Skeleton, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconArrowRight, IconCalendarEvent, IconCalendarPlus, IconVideo } from '@tabler/icons-react';
import type { Appointment } from '@telemedicina/shared/appointment';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AppointmentStatusBadge } from '../../../components/appointment-status/AppointmentStatusBadge';
import { SectionHeader } from '../../../components/section-page/SectionHeader';
import pageClasses from '../../../components/section-page/SectionPage.module.css';
import { formatLongDateTime } from '../../../components/slot-picker/slot-time';
import { useViewerTimeZone } from '../../../components/slot-picker/use-viewer-time-zone';
import { useApiErrorText } from '../../../lib/error-text';
import { useMe } from '../../../lib/session';
import { useLanguage } from '../../../lib/ui-state';
import { useUpcomingAppointments } from '../api/upcoming-appointments';
import type { HomeLink } from '../links';

/** Whom the home page speaks to. */
export type HomeAudience = 'patient' | 'doctor' | 'staff';

/** The shortcuts worded per audience (`home.audience.<doctor|staff>.links.*`). */
const audienceLinks = ['doctors', 'appointments', 'agenda'] as const;
const isAudienceLink = (key: string): key is (typeof audienceLinks)[number] =>
  (audienceLinks as readonly string[]).includes(key);
import { canJoinNow, formatRelativeStart, pickUpcoming, upcomingLimit } from '../upcoming';
import classes from './HomePage.module.css';

/**
 * The signed-in start page (`/admin`) for everyone but clinic admins (they get the clinic
 * dashboard): a greeting, the next appointments with the way into the visit once check-in opens,
 * and shortcuts to the sections this person may open (`links`, chosen by permission in `app/`).
 */
export function HomePage({
  links,
  audience = 'patient',
  canBook,
  showAppointments,
}: {
  links: readonly HomeLink[];
  /** Whom the page speaks to: a patient books for themselves, a doctor has their day, reception the clinic's. */
  audience?: HomeAudience;
  /** The viewer may book for themselves (the empty list offers it). */
  canBook: boolean;
  /** The viewer may read appointments (their own or the clinic's). */
  showAppointments: boolean;
}) {
  const { t } = useTranslation();
  const me = useMe().data;
  const appointments = useUpcomingAppointments(showAppointments);
  // The shortcuts appear with the list, not before it: on a phone they sit under the list, and
  // the list growing from its placeholder would push them down (a layout shift).
  const isListSettled = !showAppointments || !appointments.isPending;
  // A few shortcuts read differently for the doctor and for reception (the doctors' list is where a
  // patient books; for the clinic it is where one books for a patient).
  const shortcutText = (key: HomeLink['key']): string =>
    audience !== 'patient' && isAudienceLink(key)
      ? t(`home.audience.${audience}.links.${key}`)
      : t(`home.links.${key}`);
  return (
    <div className={pageClasses.page} data-testid="admin-dashboard">
      <SectionHeader
        title={me ? t('home.greeting', { name: me.user.name }) : t('admin.dashboard.title')}
        description={
          audience === 'patient' ? t('home.description') : t(`home.audience.${audience}.description`)
        }
      />
      <div className={classes.layout}>
        {showAppointments ? (
          <UpcomingAppointments
            appointments={appointments}
            viewerId={me?.user.id ?? ''}
            canBook={canBook}
            emptyText={audience === 'staff' ? t('home.audience.staff.empty') : t('home.upcoming.empty')}
          />
        ) : null}
        {isListSettled && links.length > 0 ? (
          <nav aria-labelledby="home-shortcuts-title">
            <Title order={2} size="h4" id="home-shortcuts-title" mb="sm">
              {t('home.shortcuts.title')}
            </Title>
            <ul className={classes.shortcuts} data-testid="home-shortcuts">
              {links.map((link) => (
                <li key={link.key}>
                  <Link to={link.to} className={classes.shortcut} data-testid={`home-link-${link.key}`}>
                    <ThemeIcon size={40} radius="md" variant="light" aria-hidden>
                      <link.icon size={22} stroke={1.7} />
                    </ThemeIcon>
                    <span className={classes.shortcutText}>
                      <Text component="span" fw={600} className={classes.shortcutTitle}>
                        {t(`admin.nav.${link.key}`)}
                      </Text>
                      <Text component="span" size="sm" c="gray.7">
                        {shortcutText(link.key)}
                      </Text>
                    </span>
                    <IconArrowRight size={18} className={classes.shortcutArrow} aria-hidden />
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        ) : null}
      </div>
    </div>
  );
}

/** The time, re-read every half minute so "join" appears when check-in opens without a reload. */
function useNow(intervalMs = 30_000): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(new Date()), intervalMs);
    return () => window.clearInterval(timer);
  }, [intervalMs]);
  return now;
}

function UpcomingAppointments({
  appointments,
  viewerId,
  canBook,
  emptyText,
}: {
  appointments: ReturnType<typeof useUpcomingAppointments>;
  viewerId: string;
  canBook: boolean;
  emptyText: string;
}) {
  const { t } = useTranslation();
  const errorText = useApiErrorText();
  const now = useNow();
  const upcoming = appointments.data ? pickUpcoming(appointments.data.data, now) : [];

  return (
    <Paper withBorder radius="lg" p="lg" component="section" aria-labelledby="home-upcoming-title">
      <Group justify="space-between" gap="sm" mb="sm">
        <Group gap="sm" wrap="nowrap">
          <ThemeIcon size={40} radius="md" variant="light" aria-hidden>
            <IconCalendarEvent size={22} />
          </ThemeIcon>
          <Title order={2} size="h4" id="home-upcoming-title">
            {t('home.upcoming.title')}
          </Title>
        </Group>
        <Button component={Link} to="/admin/appointments" variant="subtle" size="compact-sm">
          {t('home.upcoming.all')}
        </Button>
      </Group>
      {appointments.isPending ? (
        <Stack gap="sm" role="status" aria-busy="true" aria-label={t('home.upcoming.loading')}>
          {Array.from({ length: upcomingLimit }, (_, index) => (
            <Skeleton key={index} height={72} radius="md" />
          ))}
        </Stack>
      ) : appointments.isError ? (
        <Alert color="red" variant="light" data-testid="home-upcoming-error">
          {errorText(appointments.error)}
        </Alert>
      ) : upcoming.length === 0 ? (
        <Stack gap="sm" align="flex-start" data-testid="home-upcoming-empty">
          <Text c="gray.7">{emptyText}</Text>
          {canBook ? (
            <Button component={Link} to="/admin/doctors" leftSection={<IconCalendarPlus size={18} />}>
              {t('home.upcoming.book')}
            </Button>
          ) : null}
        </Stack>
      ) : (
        <ul className={classes.upcoming} data-testid="home-upcoming">
          {upcoming.map((item) => (
            <UpcomingItem key={item.id} item={item} viewerId={viewerId} now={now} />
          ))}
        </ul>
      )}
    </Paper>
  );
}

function UpcomingItem({ item, viewerId, now }: { item: Appointment; viewerId: string; now: Date }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const zone = useViewerTimeZone();
  const people =
    item.patient.id === viewerId
      ? t('home.upcoming.withDoctor', { name: item.doctor.name })
      : item.doctor.id === viewerId
        ? t('home.upcoming.withPatient', { name: item.patient.name })
        : t('home.upcoming.withBoth', { patient: item.patient.name, doctor: item.doctor.name });
  const isJoinable = canJoinNow(item, now);
  return (
    <li className={classes.item} data-testid="home-upcoming-item">
      <div className={classes.itemText}>
        <Text fw={600} className={classes.when}>
          {formatLongDateTime(item.startsAt, language, zone)}
        </Text>
        <Text size="sm" c="gray.7">
          {formatRelativeStart(item.startsAt, now, language)} · {people}
        </Text>
        <div className={classes.badge}>
          <AppointmentStatusBadge status={item.status} />
        </div>
      </div>
      {isJoinable ? (
        <Button
          component={Link}
          to={`/admin/visits/${item.id}`}
          leftSection={<IconVideo size={18} />}
          data-testid="home-upcoming-join"
        >
          {t('visit.join')}
        </Button>
      ) : (
        <Button
          component={Link}
          to={`/admin/appointments/${item.id}`}
          variant="default"
          data-testid="home-upcoming-open"
          aria-label={t('home.upcoming.openLabel', {
            when: formatLongDateTime(item.startsAt, language, zone),
          })}
        >
          {t('home.upcoming.open')}
        </Button>
      )}
    </li>
  );
}
