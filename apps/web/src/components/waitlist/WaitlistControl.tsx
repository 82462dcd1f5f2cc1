import '@mantine/core/styles/Checkbox.layer.css';
import '@mantine/core/styles/InlineInput.layer.css';
import '@mantine/core/styles/Paper.layer.css';
import { Button, Checkbox, Group, Paper, Skeleton, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconBellRinging, IconClockPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/format';
import { useLanguage } from '../../lib/ui-state';
import classes from './WaitlistControl.module.css';
import { useJoinWaitlist, useLeaveWaitlist, useNextAppointmentWith, useWaitlistEntry } from './waitlist-api';

export interface WaitlistControlProps {
  doctorId: string;
  viewerTimeZone: string;
  /**
   * The appointment the patient would like earlier (the appointment page). Absent on the doctor
   * page, where the patient's next appointment with that doctor is looked up instead.
   */
  appointmentStartsAt?: string;
  /** `section`: a titled box (doctor page); `inline`: a compact row (appointment page). */
  variant?: 'section' | 'inline';
}

/**
 * "Tell me if an earlier slot frees up": a patient joins or leaves a doctor's waiting list,
 * optionally only for slots before their own appointment with that doctor, and sees whether they
 * are on it (and when they were last told of a freed slot).
 */
export function WaitlistControl({
  doctorId,
  viewerTimeZone,
  appointmentStartsAt,
  variant = 'section',
}: WaitlistControlProps) {
  const { t } = useTranslation();
  const language = useLanguage();
  const entry = useWaitlistEntry(doctorId);
  const next = useNextAppointmentWith(doctorId, appointmentStartsAt === undefined && entry.data === null);
  const join = useJoinWaitlist(doctorId);
  const leave = useLeaveWaitlist(doctorId);
  const [isOnlyEarlier, setOnlyEarlier] = useState(true);
  const mine = appointmentStartsAt ?? next.data?.startsAt ?? null;
  const at = (iso: string) => formatDateTime(iso, language, viewerTimeZone);

  if (entry.isError) {
    // Not offered rather than broken: the rest of the page still works.
    return null;
  }

  const body = entry.isPending ? (
    <Stack gap={6} aria-busy="true">
      <Skeleton height={16} width="70%" />
      <Skeleton height={32} width={220} />
    </Stack>
  ) : entry.data ? (
    <Stack gap="xs" data-testid="waitlist-joined">
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <ThemeIcon variant="light" color="teal" radius="xl" size="md" aria-hidden>
          <IconBellRinging size={16} />
        </ThemeIcon>
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Text size="sm" fw={600} data-testid="waitlist-status">
            {entry.data.before
              ? t('waitlist.joinedBefore', { time: at(entry.data.before) })
              : t('waitlist.joinedAny')}
          </Text>
          <Text size="sm" c="gray.7">
            {t('waitlist.howTold')}
          </Text>
          {entry.data.notifiedAt ? (
            <Text size="xs" c="gray.7" data-testid="waitlist-notified">
              {t('waitlist.lastNotified', { time: at(entry.data.notifiedAt) })}
            </Text>
          ) : null}
        </Stack>
      </Group>
      <Group gap="xs">
        <Button
          variant="subtle"
          color="red"
          size="compact-sm"
          onClick={() => leave.mutate()}
          loading={leave.isPending}
          data-testid="waitlist-leave"
        >
          {t('waitlist.leave')}
        </Button>
      </Group>
    </Stack>
  ) : (
    <Stack gap="xs" data-testid="waitlist-offer">
      <Text size="sm" c="gray.7">
        {mine ? t('waitlist.offerWithAppointment') : t('waitlist.offer')}
      </Text>
      {mine ? (
        <Checkbox
          checked={isOnlyEarlier}
          onChange={(event) => setOnlyEarlier(event.currentTarget.checked)}
          label={t('waitlist.onlyBefore', { time: at(mine) })}
          data-testid="waitlist-only-before"
        />
      ) : null}
      <Group gap="xs">
        <Button
          variant="light"
          leftSection={<IconClockPlus size={18} aria-hidden />}
          onClick={() => join.mutate({ before: mine && isOnlyEarlier ? mine : null })}
          loading={join.isPending}
          data-testid="waitlist-join"
        >
          {t('waitlist.join')}
        </Button>
      </Group>
    </Stack>
  );

  if (variant === 'inline') {
    return (
      <section className={classes.inline} aria-labelledby="waitlist-title" data-testid="waitlist">
        <Text id="waitlist-title" fw={600} size="sm" mb={6}>
          {t('waitlist.titleEarlier')}
        </Text>
        {body}
      </section>
    );
  }
  return (
    <Paper
      withBorder
      radius="md"
      p="md"
      component="section"
      aria-labelledby="waitlist-title"
      data-testid="waitlist"
    >
      <Stack gap="sm">
        <Title order={2} size="h4" id="waitlist-title">
          {t('waitlist.title')}
        </Title>
        {body}
      </Stack>
    </Paper>
  );
}
