import '@mantine/core/styles/Paper.layer.css';
import '@mantine/core/styles/Skeleton.layer.css';
import '@mantine/core/styles/Alert.layer.css';
import { Alert, Button, Paper, Skeleton, Text, Title } from '@mantine/core';
import { IconFileDescription, IconPill, IconRepeat, IconSearch, IconVideo } from '@tabler/icons-react';
import type { Appointment } from '@telemedicina/shared/appointment';
import type { PrescriptionSummary } from '@telemedicina/shared/prescriptions';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useApiErrorText } from '../../../lib/error-text';
import { useMe } from '../../../lib/session';
import { useClock } from '../../../lib/use-clock';
import {
  usePortalDoctor,
  usePortalNotes,
  usePortalPast,
  usePortalPrescriptions,
  usePortalUpcoming,
} from '../api/portal-visits';
import { formatCountdown, pickOpenVisits, visitMoment } from '../next-visit';
import { NextVisitCard } from './NextVisitCard';
import classes from './PortalHomePage.module.css';

/** The time, re-read every half minute, so the countdown moves and "join" appears when check-in opens. */
function useNow(intervalMs = 30_000): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(new Date()), intervalMs);
    return () => window.clearInterval(timer);
  }, [intervalMs]);
  return now;
}

/**
 * The patient's home (`/portal`), built around the next visit: its card with the one right action
 * for the moment, then the other visits ahead, then the past visits with their summaries and
 * prescriptions and a way to book again with the same doctor. Without any visit: a clear start,
 * finding a doctor. The app layer may add to the next visit's card (a consent still to sign).
 */
export function PortalHomePage({
  renderNextExtra,
}: {
  /** What other features add to the next visit's card (the app layer's consent to sign). */
  renderNextExtra?: (appointment: Appointment) => ReactNode;
} = {}) {
  const { t } = useTranslation();
  const me = useMe().data;
  const now = useNow();
  const upcoming = usePortalUpcoming();
  const past = usePortalPast();
  const errorText = useApiErrorText();
  const open = upcoming.data ? pickOpenVisits(upcoming.data.data, now) : [];
  const [next, ...later] = open;
  const doctor = usePortalDoctor(next?.doctor.id);
  const hasPast = (past.data?.data.length ?? 0) > 0;
  return (
    <div className={classes.page} data-testid="portal-home">
      <header className={classes.greeting}>
        <Title order={1} className={classes.title}>
          {me ? t('home.greeting', { name: me.user.name }) : t('portal.nav.home')}
        </Title>
      </header>
      {upcoming.isPending ? (
        <Skeleton height={260} radius="lg" role="status" aria-label={t('home.upcoming.loading')} />
      ) : upcoming.isError ? (
        <Alert color="red" variant="light" data-testid="portal-upcoming-error">
          {errorText(upcoming.error)}
        </Alert>
      ) : next ? (
        <NextVisitCard appointment={next} doctor={doctor.data} now={now} extra={renderNextExtra?.(next)} />
      ) : (
        <Paper withBorder radius="lg" p="lg" component="section" data-testid="portal-start">
          <Title order={2} size="h4" mb={6}>
            {hasPast ? t('portal.start.titleAgain') : t('portal.start.title')}
          </Title>
          <Text c="gray.7" mb="md">
            {t('portal.start.text')}
          </Text>
          <Button
            component={Link}
            to="/portal/doctors"
            size="md"
            leftSection={<IconSearch size={18} />}
            data-testid="portal-find-doctor"
          >
            {t('portal.start.findDoctor')}
          </Button>
        </Paper>
      )}
      {later.length > 0 ? <LaterVisits visits={later} now={now} /> : null}
      {hasPast ? <PastVisits visits={past.data!.data} patientId={me?.user.id} /> : null}
    </div>
  );
}

function LaterVisits({ visits, now }: { visits: Appointment[]; now: Date }) {
  const { t } = useTranslation();
  const clock = useClock();
  return (
    <section aria-labelledby="portal-later-title" className={classes.section}>
      <Title order={2} size="h4" id="portal-later-title" className={classes.sectionTitle}>
        {t('portal.later.title')}
      </Title>
      <ul className={classes.list} data-testid="portal-later">
        {visits.map((item) => {
          const isJoinable = visitMoment(item, now) !== 'ahead';
          return (
            <li key={item.id} className={classes.row} data-testid="portal-later-item">
              <div className={classes.rowText}>
                <Text fw={650} className={classes.capitalized}>
                  {clock.longDateTime(item.startsAt)}
                </Text>
                <Text size="sm" c="gray.7">
                  {formatCountdown(item.startsAt, now, clock.language, clock.timeZone)} ·{' '}
                  {t('home.upcoming.withDoctor', { name: item.doctor.name })}
                </Text>
              </div>
              {isJoinable ? (
                <Button
                  component={Link}
                  to={`/portal/visits/${encodeURIComponent(item.id)}`}
                  color="green"
                  leftSection={<IconVideo size={18} />}
                  data-testid="portal-later-join"
                >
                  {t('portal.next.join')}
                </Button>
              ) : (
                <Button
                  component={Link}
                  to={`/portal/appointments/${encodeURIComponent(item.id)}`}
                  variant="default"
                  aria-label={t('home.upcoming.openLabel', { when: clock.longDateTime(item.startsAt) })}
                >
                  {t('home.upcoming.open')}
                </Button>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function PastVisits({ visits, patientId }: { visits: Appointment[]; patientId: string | undefined }) {
  const { t } = useTranslation();
  const clock = useClock();
  const prescriptions = usePortalPrescriptions(patientId);
  const notes = usePortalNotes(patientId);
  // A visit whose note the doctor has signed has a summary; the others lead to the visit's page.
  const summarized = new Set(
    (notes.data?.items ?? []).filter((note) => note.status === 'signed').map((note) => note.appointmentId),
  );
  const byVisit = new Map<string, PrescriptionSummary[]>();
  for (const item of prescriptions.data?.items ?? []) {
    if (item.appointmentId && item.status === 'active') {
      byVisit.set(item.appointmentId, [...(byVisit.get(item.appointmentId) ?? []), item]);
    }
  }
  return (
    <section aria-labelledby="portal-past-title" className={classes.section}>
      <Title order={2} size="h4" id="portal-past-title" className={classes.sectionTitle}>
        {t('portal.past.title')}
      </Title>
      <ul className={classes.list} data-testid="portal-past">
        {visits.map((item) => (
          <li key={item.id} className={classes.pastRow} data-testid="portal-past-item">
            <div className={classes.rowText}>
              <Text fw={650} className={classes.capitalized}>
                {clock.date(item.startsAt)}
              </Text>
              <Text size="sm" c="gray.7">
                {t('home.upcoming.withDoctor', { name: item.doctor.name })}
              </Text>
            </div>
            <div className={classes.pastLinks}>
              <Button
                component={Link}
                to={`/portal/appointments/${encodeURIComponent(item.id)}`}
                variant="light"
                size="compact-sm"
                leftSection={<IconFileDescription size={16} />}
                aria-label={t(
                  summarized.has(item.id) ? 'portal.past.summaryLabel' : 'portal.past.visitLabel',
                  {
                    when: clock.date(item.startsAt),
                  },
                )}
                data-testid="portal-past-summary"
                data-summary={summarized.has(item.id) || undefined}
              >
                {summarized.has(item.id) ? t('portal.past.summary') : t('portal.past.visit')}
              </Button>
              {(byVisit.get(item.id) ?? []).map((prescription) => (
                <Button
                  key={prescription.id}
                  component={Link}
                  to={`/portal/prescriptions/${encodeURIComponent(prescription.id)}`}
                  variant="light"
                  size="compact-sm"
                  leftSection={<IconPill size={16} />}
                  data-testid="portal-past-prescription"
                >
                  {t('portal.past.prescription', { medications: prescription.medications.join(', ') })}
                </Button>
              ))}
              <Button
                component={Link}
                to={`/portal/doctors/${encodeURIComponent(item.doctor.id)}`}
                variant="subtle"
                size="compact-sm"
                leftSection={<IconRepeat size={16} />}
                aria-label={t('portal.past.bookAgainLabel', { name: item.doctor.name })}
                data-testid="portal-past-book-again"
              >
                {t('portal.past.bookAgain')}
              </Button>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
