import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/Anchor.layer.css';
import '@mantine/core/styles/Avatar.layer.css';
import '@mantine/core/styles/Tabs.layer.css';
import { Alert, Anchor, Avatar, Group, Loader, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconCalendarOff, IconClockHour4, IconId } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import pageClasses from '../../../components/section-page/SectionPage.module.css';
import { ApiError } from '../../../lib/api-client';
import { useApiErrorText } from '../../../lib/error-text';
import { timeZoneOffset } from '../../../lib/time-zones';
import { useHasAnyPermission, useLanguage } from '../../../lib/ui-state';
import { useDoctorProfile } from '../api/get-doctor-profile';
import { ExceptionsPanel } from './ExceptionsPanel';
import { ProfilePanel } from './ProfilePanel';
import classes from './Schedule.module.css';
import { WeeklyHoursPanel } from './WeeklyHoursPanel';
import { formatTimeZoneName } from '../../../lib/clock';

const tabKeys = ['hours', 'exceptions', 'profile'] as const;
type TabKey = (typeof tabKeys)[number];

function initials(name: string): string {
  return name
    .replace(/^(Dra?\.|Dr\.)\s+/u, '')
    .split(/\s+/)
    .slice(0, 2)
    .map((part) => part.charAt(0).toUpperCase())
    .join('');
}

export interface ScheduleEditorProps {
  doctorId: string;
  /** The signed-in doctor's own schedule (`/admin/schedule`) rather than another doctor's. */
  isOwn: boolean;
}

/**
 * A doctor's weekly hours, exceptions and profile in three tabs (the tab in the address). Each tab
 * appears only for those who may change it: the doctor their own (`availability.manage.own`,
 * `doctors.profile.own`), administrators anyone's (`availability.manage.any`, `doctors.manage`).
 */
export function ScheduleEditor({ doctorId, isOwn }: ScheduleEditorProps) {
  const { t } = useTranslation();
  const language = useLanguage();
  const errorText = useApiErrorText();
  const [searchParams, setSearchParams] = useSearchParams();
  const canManageAny = useHasAnyPermission(['availability.manage.any']);
  const canManageOwn = useHasAnyPermission(['availability.manage.own']);
  const canEditAny = useHasAnyPermission(['doctors.manage']);
  const canEditOwn = useHasAnyPermission(['doctors.profile.own']);
  const canHours = canManageAny || (isOwn && canManageOwn);
  const canProfile = canEditAny || (isOwn && canEditOwn);
  const profile = useDoctorProfile(doctorId);

  const isMissing = profile.error instanceof ApiError && profile.error.status === 404;
  const canCreate = isMissing && canEditAny;
  const visibleTabs = tabKeys.filter((key) => (key === 'profile' ? canProfile : canHours && !isMissing));
  const requested = searchParams.get('tab');
  const tab: TabKey = visibleTabs.find((key) => key === requested) ?? visibleTabs[0] ?? 'hours';

  const back = !isOwn ? (
    <Anchor component={Link} to={`/admin/doctors/${encodeURIComponent(doctorId)}`} size="sm">
      <Group gap={4} component="span">
        <IconArrowLeft size={16} />
        {t('schedule.backToDoctor')}
      </Group>
    </Anchor>
  ) : null;

  if (profile.isPending) {
    return (
      <Stack gap="md">
        {back}
        <Loader />
      </Stack>
    );
  }
  if (profile.isError && !canCreate) {
    return (
      <Stack gap="md">
        {back}
        <Title order={1} className={pageClasses.title}>
          {isOwn ? t('admin.nav.schedule') : t('schedule.title')}
        </Title>
        <Alert color={isMissing ? 'blue' : 'red'} variant="light" data-testid="schedule-error">
          {isMissing ? t('schedule.noProfile') : errorText(profile.error)}
        </Alert>
      </Stack>
    );
  }
  const doctor = profile.data ?? null;
  const zone = doctor?.timeZone ?? 'UTC';

  return (
    <Stack gap={0}>
      {back}
      <div className={classes.header} style={back ? { marginTop: 12 } : undefined}>
        <Avatar
          src={doctor?.photoUrl ?? undefined}
          size={64}
          radius="xl"
          color="blue"
          alt=""
          visibleFrom="xs"
        >
          {doctor ? initials(doctor.name) : null}
        </Avatar>
        <Stack gap={2} className={classes.headerText}>
          <Title order={1} className={pageClasses.title} data-testid="schedule-title">
            {isOwn ? t('admin.nav.schedule') : t('schedule.titleFor', { name: doctor?.name ?? '' })}
          </Title>
          <Text c="gray.7" size="sm">
            {isOwn ? t('admin.sections.schedule') : t('schedule.descriptionOther')}
          </Text>
          {doctor ? (
            <Group gap="md">
              <Text size="xs" c="gray.7">
                {t('schedule.zoneShort', {
                  zone: formatTimeZoneName(zone, language),
                  offset: timeZoneOffset(zone),
                })}
              </Text>
              {isOwn ? (
                <Anchor component={Link} to="/admin/profile/photo" className={classes.photoLink}>
                  {t('schedule.changePhoto')}
                </Anchor>
              ) : null}
            </Group>
          ) : null}
        </Stack>
      </div>
      <Tabs
        value={tab}
        onChange={(value) =>
          setSearchParams(
            (current) => {
              const next = new URLSearchParams(current);
              if (value && value !== visibleTabs[0]) {
                next.set('tab', value);
              } else {
                next.delete('tab');
              }
              return next;
            },
            { replace: true },
          )
        }
        keepMounted={false}
      >
        <Tabs.List>
          {visibleTabs.includes('hours') ? (
            <Tabs.Tab
              value="hours"
              leftSection={<IconClockHour4 size={16} />}
              data-testid="schedule-tab-hours"
            >
              {t('schedule.tabs.hours')}
            </Tabs.Tab>
          ) : null}
          {visibleTabs.includes('exceptions') ? (
            <Tabs.Tab
              value="exceptions"
              leftSection={<IconCalendarOff size={16} />}
              data-testid="schedule-tab-exceptions"
            >
              {t('schedule.tabs.exceptions')}
            </Tabs.Tab>
          ) : null}
          {visibleTabs.includes('profile') ? (
            <Tabs.Tab value="profile" leftSection={<IconId size={16} />} data-testid="schedule-tab-profile">
              {t('schedule.tabs.profile')}
            </Tabs.Tab>
          ) : null}
        </Tabs.List>
        <Tabs.Panel value="hours" className={classes.panel}>
          <WeeklyHoursPanel doctorId={doctorId} />
        </Tabs.Panel>
        <Tabs.Panel value="exceptions" className={classes.panel}>
          <ExceptionsPanel doctorId={doctorId} timeZone={zone} />
        </Tabs.Panel>
        <Tabs.Panel value="profile" className={classes.panel}>
          <ProfilePanel key={doctor?.id ?? 'new'} doctorId={doctorId} profile={doctor} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
