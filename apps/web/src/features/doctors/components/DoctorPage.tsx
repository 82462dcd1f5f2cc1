import '@mantine/core/styles/Anchor.layer.css';
import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/Badge.layer.css';
import '@mantine/core/styles/Paper.layer.css';
import { Alert, Anchor, Badge, Button, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconCalendarCog } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { SectionForbidden } from '../../../components/section-page/SectionForbidden';
import { SectionHeader } from '../../../components/section-page/SectionHeader';
import pageClasses from '../../../components/section-page/SectionPage.module.css';
import { SlotPicker, useViewerTimeZone } from '../../../components/slot-picker';
import { WaitlistControl } from '../../../components/waitlist';
import { useApiErrorText } from '../../../lib/error-text';
import { useHasAnyPermission, useLanguage } from '../../../lib/ui-state';
import { useDoctor } from '../api/doctors';
import { languageName } from '../language-names';
import { BookingModal } from './BookingModal';
import { DoctorAvatar } from './DoctorAvatar';
import classes from './Doctors.module.css';

/**
 * `/admin/doctors/:id`: the doctor's profile (specialties, languages, visit length, biography in
 * the reader's language) and the week-by-week slot picker; a slot (or `?slot=` from the directory)
 * opens the booking dialog for those who may book.
 */
export function DoctorPage() {
  const { t } = useTranslation();
  const isAllowed = useHasAnyPermission(['doctors.read']);
  return (
    <div className={pageClasses.page} data-testid="doctor-page">
      {isAllowed ? (
        <DoctorProfileView />
      ) : (
        <>
          <SectionHeader title={t('admin.nav.doctors')} description={t('admin.sections.doctors')} />
          <SectionForbidden />
        </>
      )}
    </div>
  );
}

function DoctorProfileView() {
  const { t } = useTranslation();
  const language = useLanguage();
  const errorText = useApiErrorText();
  const { id = '' } = useParams();
  const [searchParams, setSearchParams] = useSearchParams();
  const viewerZone = useViewerTimeZone();
  const canBook = useHasAnyPermission(['appointments.book.self', 'appointments.book.any']);
  const canEditSchedule = useHasAnyPermission(['availability.manage.any', 'doctors.manage']);
  // The waiting list is the patient's own (the server allows it to appointments.book.self only).
  const canWait = useHasAnyPermission(['appointments.book.self']);
  const doctor = useDoctor(id);
  const slot = searchParams.get('slot');
  const chosen = canBook && slot && !Number.isNaN(Date.parse(slot)) ? slot : null;

  const choose = (startsAt: string | null) =>
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (startsAt) {
          next.set('slot', startsAt);
        } else {
          next.delete('slot');
        }
        return next;
      },
      { replace: true },
    );

  const back = (
    <Anchor component={Link} to="/admin/doctors" size="sm" data-testid="doctor-back">
      <Group gap={4} component="span">
        <IconArrowLeft size={16} />
        {t('doctors.back')}
      </Group>
    </Anchor>
  );

  if (doctor.isPending) {
    return (
      <Stack gap="md">
        {back}
        <Loader />
      </Stack>
    );
  }
  if (doctor.isError) {
    return (
      <Stack gap="md">
        {back}
        <Alert color="red" variant="light" data-testid="doctor-error">
          {errorText(doctor.error)}
        </Alert>
      </Stack>
    );
  }
  const profile = doctor.data;
  const bio = profile.bio[language].trim();

  return (
    <Stack gap="lg">
      {back}
      <div className={classes.profile}>
        <DoctorAvatar name={profile.name} photoUrl={profile.photoUrl} size={96} />
        <Stack gap={6} style={{ minWidth: 0, flex: 1 }}>
          <Group justify="space-between" gap="sm" wrap="wrap">
            <Title order={1} className={`${pageClasses.title} ${classes.name}`} data-testid="doctor-name">
              {profile.name}
            </Title>
            {canEditSchedule ? (
              <Button
                component={Link}
                to={`/admin/doctors/${encodeURIComponent(profile.id)}/schedule`}
                variant="light"
                leftSection={<IconCalendarCog size={16} />}
                data-testid="doctor-edit-schedule"
              >
                {t('schedule.edit')}
              </Button>
            ) : null}
          </Group>
          <Group gap={6}>
            {profile.specialties.map((specialty) => (
              <Badge key={specialty.id} variant="light" tt="none" data-testid="doctor-specialty">
                {specialty.name[language]}
              </Badge>
            ))}
            {!profile.acceptsNewPatients ? (
              <Badge variant="outline" color="gray" tt="none">
                {t('doctors.notAccepting')}
              </Badge>
            ) : null}
          </Group>
          <dl className={pageClasses.facts}>
            <dt>{t('doctors.columns.languages')}</dt>
            <dd data-testid="doctor-languages">
              {profile.languages.map((code) => languageName(code, language)).join(', ') || '—'}
            </dd>
            <dt>{t('doctors.columns.visit')}</dt>
            <dd>{t('doctors.minutes', { count: profile.visitMinutes })}</dd>
            <dt>{t('doctors.license')}</dt>
            <dd>{profile.licenseNumber}</dd>
          </dl>
        </Stack>
      </div>
      {bio ? (
        <Text className={classes.bio} data-testid="doctor-bio">
          {bio}
        </Text>
      ) : null}
      <Paper withBorder radius="md" p="md">
        <Stack gap="sm">
          <Title order={2} size="h4">
            {t('doctors.availability')}
          </Title>
          {!canBook ? (
            <Text size="sm" c="gray.7">
              {t('doctors.cannotBook')}
            </Text>
          ) : null}
          <SlotPicker
            doctorId={profile.id}
            doctorTimeZone={profile.timeZone}
            viewerTimeZone={viewerZone}
            onPick={canBook ? (picked) => choose(picked.startsAt) : undefined}
          />
        </Stack>
      </Paper>
      {canWait ? <WaitlistControl doctorId={profile.id} viewerTimeZone={viewerZone} /> : null}
      {canBook ? (
        <BookingModal
          doctor={profile}
          startsAt={chosen}
          viewerTimeZone={viewerZone}
          onClose={() => choose(null)}
        />
      ) : null}
    </Stack>
  );
}
