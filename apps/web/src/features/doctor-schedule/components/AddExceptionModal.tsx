import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/SegmentedControl.layer.css';
import '@mantine/core/styles/InlineInput.layer.css';
import '@mantine/core/styles/Switch.layer.css';
import '@mantine/core/styles/ModalBase.layer.css';
import '@mantine/core/styles/Modal.layer.css';
import '@mantine/core/styles/Overlay.layer.css';
import '@mantine/core/styles/CloseButton.layer.css';
import {
  Alert,
  Button,
  Group,
  NativeSelect,
  SegmentedControl,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import {
  createAvailabilityExceptionRequestSchema,
  type AvailabilityExceptionKind,
  type CreateAvailabilityExceptionRequest,
} from '@telemedicina/shared/booking';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DateRangeInput, type DateRange } from '../../../components/date-range-input/DateRangeInput';
import { AppModal } from '../../../components/modal/AppModal';
import { ApiError } from '../../../lib/api-client';
import { useApiErrorText } from '../../../lib/error-text';
import { useFieldErrorText } from '../../../lib/form-errors';
import { addCalendarDays, formatWallTime, zonedInstant } from '../../../lib/zoned-time';
import { useCreateAvailabilityException } from '../api/create-availability-exception';
import { timeChoices } from '../weekly-hours';
import { formatTimeZoneName } from '../../../lib/clock';
import { useLanguage } from '../../../lib/ui-state';

export interface ExceptionDraft {
  kind: AvailabilityExceptionKind;
  dates: DateRange;
  isAllDay: boolean;
  startTime: string;
  endTime: string;
  reason: string;
}

/**
 * The request for an exception typed as wall-clock dates and times in the doctor's zone: all day
 * runs from the first date's midnight to the midnight after the last date. Null while a date is
 * missing.
 */
export function toExceptionRequest(
  draft: ExceptionDraft,
  timeZone: string,
): CreateAvailabilityExceptionRequest | null {
  const [first, last] = draft.dates;
  if (!first) {
    return null;
  }
  const end = last ?? first;
  const startMinutes = draft.isAllDay ? 0 : minutesOf(draft.startTime);
  const startsAt = zonedInstant(first, startMinutes, timeZone);
  const endsAt = draft.isAllDay
    ? zonedInstant(addCalendarDays(end, 1), 0, timeZone)
    : zonedInstant(end, minutesOf(draft.endTime), timeZone);
  const reason = draft.reason.trim();
  return {
    kind: draft.kind,
    startsAt: startsAt.toISOString(),
    endsAt: endsAt.toISOString(),
    reason: reason === '' ? null : reason,
  };
}

function minutesOf(time: string): number {
  const [hours = '0', minutes = '0'] = time.split(':');
  return Number(hours) * 60 + Number(minutes);
}

const initialDraft = (): ExceptionDraft => ({
  kind: 'time_off',
  dates: [null, null],
  isAllDay: true,
  startTime: formatWallTime(9 * 60),
  endTime: formatWallTime(13 * 60),
  reason: '',
});

export interface AddExceptionModalProps {
  opened: boolean;
  doctorId: string;
  timeZone: string;
  onClose: () => void;
}

/** Adds time off or extra hours: kind, dates, all day or a time range (doctor's zone), reason. */
export function AddExceptionModal({ opened, doctorId, timeZone, onClose }: AddExceptionModalProps) {
  const { t } = useTranslation();
  const language = useLanguage();
  const errorText = useApiErrorText();
  const fieldErrorText = useFieldErrorText();
  const create = useCreateAvailabilityException(doctorId);
  const [draft, setDraft] = useState<ExceptionDraft>(initialDraft);
  const [errors, setErrors] = useState<{ dates?: string; end?: string; reason?: string }>({});

  const set = <K extends keyof ExceptionDraft>(key: K, value: ExceptionDraft[K]) =>
    setDraft((current) => ({ ...current, [key]: value }));

  const close = () => {
    create.reset();
    setDraft(initialDraft());
    setErrors({});
    onClose();
  };

  const handleSubmit = async () => {
    const request = toExceptionRequest(draft, timeZone);
    if (!request) {
      setErrors({ dates: t('validation.required') });
      return;
    }
    const parsed = createAvailabilityExceptionRequestSchema.safeParse(request);
    if (!parsed.success) {
      const next: typeof errors = {};
      for (const issue of parsed.error.issues) {
        const message = fieldErrorText(issue.message);
        if (issue.path[0] === 'reason') {
          next.reason = message;
        } else if (issue.path[0] === 'endsAt') {
          next.end = message;
        } else {
          next.dates = message;
        }
      }
      setErrors(next);
      return;
    }
    setErrors({});
    try {
      await create.mutateAsync(parsed.data);
      close();
    } catch (error) {
      if (error instanceof ApiError && error.fieldErrors) {
        const fields = error.fieldErrors;
        setErrors({
          dates: fieldErrorText(fields.startsAt),
          end: fieldErrorText(fields.endsAt),
          reason: fieldErrorText(fields.reason),
        });
      }
    }
  };

  const serverError =
    create.isError && !(create.error instanceof ApiError && create.error.fieldErrors)
      ? errorText(create.error)
      : null;

  return (
    <AppModal
      opened={opened}
      onClose={close}
      isStatic
      centered
      title={<Text fw={650}>{t('schedule.exceptions.addTitle')}</Text>}
    >
      <Stack gap="md" data-testid="schedule-exception-form">
        <SegmentedControl
          fullWidth
          value={draft.kind}
          onChange={(value) => set('kind', value === 'extra' ? 'extra' : 'time_off')}
          data={[
            { value: 'time_off', label: t('schedule.exceptions.kind.time_off') },
            { value: 'extra', label: t('schedule.exceptions.kind.extra') },
          ]}
          data-testid="schedule-exception-kind-input"
        />
        <Text size="xs" c="gray.7">
          {draft.kind === 'time_off'
            ? t('schedule.exceptions.timeOffHint')
            : t('schedule.exceptions.extraHint')}
        </Text>
        <DateRangeInput
          label={t('schedule.exceptions.dates')}
          placeholder={t('schedule.exceptions.datesPlaceholder')}
          value={draft.dates}
          onChange={(dates) => set('dates', dates)}
          error={errors.dates}
          required
          data-testid="schedule-exception-dates"
        />
        <Switch
          label={t('schedule.exceptions.allDay')}
          checked={draft.isAllDay}
          onChange={(event) => set('isAllDay', event.currentTarget.checked)}
          data-testid="schedule-exception-all-day"
        />
        {!draft.isAllDay ? (
          <Group grow align="flex-start">
            <NativeSelect
              label={t('schedule.exceptions.startTime')}
              value={draft.startTime}
              onChange={(event) => set('startTime', event.currentTarget.value)}
              data={timeChoices('start', draft.startTime)}
              data-testid="schedule-exception-start"
            />
            <NativeSelect
              label={t('schedule.exceptions.endTime')}
              value={draft.endTime}
              onChange={(event) => set('endTime', event.currentTarget.value)}
              data={timeChoices('end', draft.endTime)}
              error={errors.end}
              data-testid="schedule-exception-end"
            />
          </Group>
        ) : errors.end ? (
          <Text size="xs" c="red.8">
            {errors.end}
          </Text>
        ) : null}
        <Text size="xs" c="gray.7">
          {t('schedule.exceptions.zone', { zone: formatTimeZoneName(timeZone, language) })}
        </Text>
        <TextInput
          label={t('schedule.exceptions.reason')}
          placeholder={t('schedule.exceptions.reasonPlaceholder')}
          maxLength={500}
          value={draft.reason}
          onChange={(event) => set('reason', event.currentTarget.value)}
          error={errors.reason}
          data-testid="schedule-exception-reason"
        />
        {serverError ? (
          <Alert color="red" variant="light">
            {serverError}
          </Alert>
        ) : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={close} disabled={create.isPending}>
            {t('common.cancel')}
          </Button>
          <Button
            loading={create.isPending}
            onClick={() => void handleSubmit()}
            data-testid="schedule-exception-save"
          >
            {t('schedule.exceptions.save')}
          </Button>
        </Group>
      </Stack>
    </AppModal>
  );
}
