import '@mantine/core/styles/Badge.layer.css';
import { Badge, Button, Text } from '@mantine/core';
import type { DoctorDirectoryItem } from '@telemedicina/shared/doctors';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import {
  dateInZone,
  formatDay,
  formatTime,
  useViewerTimeZone,
  zonesDiffer,
} from '../../../components/slot-picker';
import { formatTimeZoneName } from '../../../lib/clock';
import { useLanguage } from '../../../lib/ui-state';
import { languageName } from '../language-names';
import { DoctorAvatar } from './DoctorAvatar';
import classes from './Doctors.module.css';

/**
 * Where a directory doctor leads, relative to the directory (`/portal/doctors` for a patient,
 * `/admin/doctors` for staff): their page, with every free time.
 */
export function doctorHref(doctorId: string): string {
  return encodeURIComponent(doctorId);
}

/** Where a directory slot button leads: the doctor's page with the booking dialog open on that time. */
export function bookingHref(doctorId: string, startsAt: string): string {
  return `${doctorHref(doctorId)}?slot=${encodeURIComponent(startsAt)}`;
}

/**
 * One doctor of the directory as a card: photo or initials, the name (wrapped only between words),
 * specialties, languages by their names in the reader's language, visit length, and the next free
 * times as buttons that open the booking on that time. The name is the card's link to the profile.
 */
export function DoctorCard({ doctor }: { doctor: DoctorDirectoryItem }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const viewerZone = useViewerTimeZone();
  return (
    <li className={classes.card} data-testid="list-row" data-id={doctor.id}>
      <div className={classes.cardHead}>
        <DoctorAvatar name={doctor.name} photoUrl={doctor.photoUrl} size={56} />
        <div className={classes.cardTitle}>
          <Link to={doctorHref(doctor.id)} className={classes.cardLink} data-testid="list-row-link">
            <Text component="h2" fw={700} size="lg" className={classes.name} data-testid="doctor-row-name">
              {doctor.name}
            </Text>
          </Link>
          {doctor.specialties.length > 0 ? (
            <Text size="sm" c="gray.7" className={classes.words} data-testid="doctor-row-specialties">
              {doctor.specialties.map((specialty) => specialty.name[language]).join(' · ')}
            </Text>
          ) : null}
        </div>
      </div>
      <dl className={classes.facts}>
        <div>
          <dt>{t('doctors.columns.languages')}</dt>
          <dd data-testid="doctor-row-languages">
            {doctor.languages.map((code) => languageName(code, language)).join(', ')}
          </dd>
        </div>
        <div>
          <dt>{t('doctors.columns.visit')}</dt>
          <dd>{t('doctors.minutes', { count: doctor.visitMinutes })}</dd>
        </div>
      </dl>
      {!doctor.acceptsNewPatients ? (
        <Badge size="sm" variant="light" color="gray" tt="none" w="fit-content" maw="100%">
          {t('doctors.notAccepting')}
        </Badge>
      ) : null}
      <div className={classes.cardSlots}>
        <Text size="sm" fw={600} component="h3">
          {t('doctors.columns.nextSlots')}
        </Text>
        {doctor.nextSlots.length === 0 ? (
          <Text size="sm" c="gray.7" data-testid="doctor-no-slots">
            {t('doctors.noSlots')}
          </Text>
        ) : (
          <>
            <div className={classes.slots}>
              {doctor.nextSlots.map((startsAt) => (
                <Button
                  key={startsAt}
                  component={Link}
                  to={bookingHref(doctor.id, startsAt)}
                  variant="light"
                  size="sm"
                  classNames={{ root: classes.slotButton, label: classes.slotLabel }}
                  data-testid="doctor-next-slot"
                >
                  <span className={classes.slotDay}>
                    {formatDay(dateInZone(startsAt, viewerZone), language)}
                  </span>
                  <span className={classes.slotTime}>{formatTime(startsAt, language, viewerZone)}</span>
                </Button>
              ))}
            </div>
            {zonesDiffer(viewerZone, doctor.timeZone) ? (
              <Text size="xs" c="gray.7" data-testid="doctor-slot-zone">
                {t('doctors.timesIn', { zone: formatTimeZoneName(viewerZone, language) })}
              </Text>
            ) : null}
          </>
        )}
      </div>
    </li>
  );
}
