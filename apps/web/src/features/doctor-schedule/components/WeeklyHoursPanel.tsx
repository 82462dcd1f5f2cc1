import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/ActionIcon.layer.css';
import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/Badge.layer.css';
import { ActionIcon, Alert, Badge, Button, Group, Loader, NativeSelect, Stack, Text } from '@mantine/core';
import { IconCopy, IconDeviceFloppy, IconPlus, IconTrash, IconWorld } from '@tabler/icons-react';
import type { AvailabilityRulesResponse } from '@telemedicina/shared/booking';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, publishApiErrorAlert } from '../../../lib/api-client';
import { useApiErrorText } from '../../../lib/error-text';
import { useFieldErrorText } from '../../../lib/form-errors';
import { timeZoneOffset } from '../../../lib/time-zones';
import { useLanguage } from '../../../lib/ui-state';
import { useAvailabilityRules } from '../api/get-availability-rules';
import { useReplaceAvailabilityRules } from '../api/replace-availability-rules';
import {
  copyMondayToWeekdays,
  groupRules,
  isSameWeek,
  mapServerIssues,
  suggestRange,
  timeChoices,
  toRulesRequest,
  typicalWeek,
  validateWeek,
  weekdays,
  weeklyMinutes,
  type RangeDraft,
  type RangeField,
  type RangeIssue,
  type WeekDraft,
  type Weekday,
} from '../weekly-hours';
import classes from './Schedule.module.css';
import { formatCalendarDate, formatTimeZoneName } from '../../../lib/clock';

/** A weekday's name in the reader's language ("lunes", "Monday"); 2024-01-01 was a Monday. */
function weekdayName(day: Weekday, language: string): string {
  return formatCalendarDate(`2024-01-${String(day).padStart(2, '0')}`, language, { weekday: 'long' });
}

/** The weekly hours tab: loads the rules, then edits them as a whole. */
export function WeeklyHoursPanel({ doctorId }: { doctorId: string }) {
  const errorText = useApiErrorText();
  const rules = useAvailabilityRules(doctorId);
  if (rules.isPending) {
    return <Loader />;
  }
  if (rules.isError) {
    return (
      <Alert color="red" variant="light" data-testid="schedule-hours-error">
        {errorText(rules.error)}
      </Alert>
    );
  }
  return <WeeklyHoursEditor key={doctorId} doctorId={doctorId} saved={rules.data} />;
}

function WeeklyHoursEditor({ doctorId, saved }: { doctorId: string; saved: AvailabilityRulesResponse }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const fieldErrorText = useFieldErrorText();
  const replace = useReplaceAvailabilityRules(doctorId);
  const [initial, setInitial] = useState(() => groupRules(saved.rules));
  const [week, setWeek] = useState<WeekDraft>(initial);
  const [issues, setIssues] = useState<Map<string, RangeIssue>>(new Map());
  const [otherErrors, setOtherErrors] = useState<string[]>([]);
  const [isSaved, setIsSaved] = useState(false);
  const isDirty = !isSameWeek(week, initial);
  const isEmpty = weekdays.every((day) => week[day].length === 0);
  const otherZones = [
    ...new Set(saved.rules.map((rule) => rule.timeZone).filter((zone) => zone !== saved.timeZone)),
  ];
  const totalMinutes = weeklyMinutes(week);

  const change = (next: WeekDraft) => {
    setWeek(next);
    setIsSaved(false);
    // Problems already shown follow the edit; new ones only appear on save.
    if (issues.size > 0) {
      setIssues(validateWeek(next));
    }
    setOtherErrors([]);
  };

  const updateRange = (day: Weekday, key: string, field: RangeField, value: string) =>
    change({
      ...week,
      [day]: week[day].map((range) => (range.key === key ? { ...range, [field]: value } : range)),
    });
  const removeRange = (day: Weekday, key: string) =>
    change({ ...week, [day]: week[day].filter((range) => range.key !== key) });
  const addRange = (day: Weekday) => {
    const range = suggestRange(week[day]);
    if (range) {
      change({ ...week, [day]: [...week[day], range] });
    }
  };

  const handleSave = async () => {
    const found = validateWeek(week);
    setIssues(found);
    if (found.size > 0) {
      return;
    }
    const { rules, keys } = toRulesRequest(week);
    try {
      const result = await replace.mutateAsync({ rules });
      const next = groupRules(result.rules);
      setInitial(next);
      setWeek(next);
      setIsSaved(true);
    } catch (error) {
      if (error instanceof ApiError && error.fieldErrors) {
        const mapped = mapServerIssues(error.fieldErrors, keys);
        setIssues(mapped.byRow);
        setOtherErrors(mapped.other);
        return;
      }
      publishApiErrorAlert(error);
    }
  };

  const rangeRow = (day: Weekday, range: RangeDraft, index: number) => {
    const issue = issues.get(range.key);
    const dayName = weekdayName(day, language);
    const select = (field: RangeField) => (
      <NativeSelect
        size="sm"
        aria-label={t(field === 'start' ? 'schedule.hours.startOf' : 'schedule.hours.endOf', {
          day: dayName,
          index: index + 1,
        })}
        value={range[field]}
        onChange={(event) => updateRange(day, range.key, field, event.currentTarget.value)}
        data={timeChoices(field, range[field]).map((time) => ({
          value: time,
          label: time,
        }))}
        error={issue?.field === field ? true : undefined}
        className={classes.timeSelect}
        data-testid={`schedule-range-${field}`}
      />
    );
    return (
      <div key={range.key} className={classes.rangeRow} data-testid="schedule-range">
        <Group gap={6} wrap="nowrap" align="center">
          {select('start')}
          <Text size="sm" c="gray.7" aria-hidden>
            –
          </Text>
          {select('end')}
          <ActionIcon
            variant="subtle"
            color="red"
            aria-label={t('schedule.hours.remove', { day: dayName, index: index + 1 })}
            onClick={() => removeRange(day, range.key)}
            data-testid="schedule-range-remove"
          >
            <IconTrash size={16} />
          </ActionIcon>
        </Group>
        {range.validFrom || range.validUntil ? (
          <Badge size="xs" variant="light" color="gray" tt="none" mt={4}>
            {t('schedule.hours.validity', {
              from: range.validFrom ?? '…',
              until: range.validUntil ?? '…',
            })}
          </Badge>
        ) : null}
        {issue ? (
          <Text size="xs" c="red.8" mt={4} role="alert" data-testid="schedule-range-error">
            {fieldErrorText(issue.message)}
          </Text>
        ) : null}
      </div>
    );
  };

  return (
    <Stack gap="md" data-testid="schedule-hours">
      <div className={classes.zoneNote} data-testid="schedule-zone">
        <IconWorld size={18} style={{ flex: 'none' }} />
        <Text size="sm">
          {t('schedule.hours.zone', {
            zone: formatTimeZoneName(saved.timeZone, language),
            offset: timeZoneOffset(saved.timeZone),
          })}
        </Text>
      </div>
      {otherZones.length > 0 ? (
        <Alert color="yellow" variant="light">
          {t('schedule.hours.otherZones', {
            zones: otherZones.map((zone) => formatTimeZoneName(zone, language)).join(', '),
            zone: formatTimeZoneName(saved.timeZone, language),
          })}
        </Alert>
      ) : null}
      {isEmpty ? (
        <Alert
          color="blue"
          variant="light"
          title={t('schedule.hours.emptyTitle')}
          data-testid="schedule-hours-empty"
        >
          <Stack gap="sm" align="flex-start">
            <Text size="sm">{t('schedule.hours.emptyBody')}</Text>
            <Button
              size="xs"
              variant="light"
              leftSection={<IconPlus size={14} />}
              onClick={() => change(typicalWeek())}
              data-testid="schedule-typical-week"
            >
              {t('schedule.hours.typicalWeek')}
            </Button>
          </Stack>
        </Alert>
      ) : null}
      <div className={classes.week}>
        {weekdays.map((day) => (
          <div key={day} className={classes.dayRow} data-testid="schedule-day" data-weekday={day}>
            <div className={classes.dayName}>
              <Text fw={600} size="sm" className={classes.capitalized}>
                {weekdayName(day, language)}
              </Text>
              {week[day].length === 0 ? (
                <Text size="xs" c="gray.7">
                  {t('schedule.hours.unavailable')}
                </Text>
              ) : null}
            </div>
            <div className={classes.ranges}>
              {week[day].map((range, index) => rangeRow(day, range, index))}
              <Group gap="xs">
                <Button
                  size="compact-sm"
                  variant="subtle"
                  leftSection={<IconPlus size={14} />}
                  onClick={() => addRange(day)}
                  disabled={suggestRange(week[day]) === null}
                  data-testid="schedule-add-range"
                >
                  {t('schedule.hours.add')}
                </Button>
                {day === 1 && week[1].length > 0 ? (
                  <Button
                    size="compact-sm"
                    variant="subtle"
                    leftSection={<IconCopy size={14} />}
                    // Long labels wrap on a phone instead of being cut.
                    styles={{ root: { height: 'auto', minHeight: 26 }, label: { whiteSpace: 'normal' } }}
                    onClick={() => change(copyMondayToWeekdays(week))}
                    data-testid="schedule-copy-monday"
                  >
                    {t('schedule.hours.copyMonday')}
                  </Button>
                ) : null}
              </Group>
            </div>
          </div>
        ))}
      </div>
      {otherErrors.length > 0 ? (
        <Alert color="red" variant="light">
          {otherErrors.map((message) => fieldErrorText(message)).join(' ')}
        </Alert>
      ) : null}
      {issues.size > 0 ? (
        <Alert color="red" variant="light" data-testid="schedule-hours-invalid">
          {t('schedule.hours.fixErrors')}
        </Alert>
      ) : null}
      <div className={classes.saveBar}>
        <Text size="sm" c="gray.7" data-testid="schedule-total">
          {t('schedule.hours.total', {
            hours: new Intl.NumberFormat(language, { maximumFractionDigits: 2 }).format(totalMinutes / 60),
          })}
        </Text>
        <Group gap="sm">
          {isSaved && !isDirty ? (
            <Text size="sm" c="teal.8" data-testid="schedule-hours-saved">
              {t('schedule.saved')}
            </Text>
          ) : null}
          <Button variant="default" disabled={!isDirty || replace.isPending} onClick={() => change(initial)}>
            {t('schedule.discard')}
          </Button>
          <Button
            leftSection={<IconDeviceFloppy size={16} />}
            disabled={!isDirty}
            loading={replace.isPending}
            onClick={() => void handleSave()}
            data-testid="schedule-hours-save"
          >
            {t('schedule.hours.save')}
          </Button>
        </Group>
      </div>
    </Stack>
  );
}
