import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/ActionIcon.layer.css';
import '@mantine/core/styles/Badge.layer.css';
import '@mantine/core/styles/InlineInput.layer.css';
import '@mantine/core/styles/Switch.layer.css';
import { ActionIcon, Alert, Badge, Button, Group, Loader, Stack, Switch, Text } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import type { AvailabilityException } from '@telemedicina/shared/booking';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/modal/ConfirmDialog';
import { useApiErrorText } from '../../../lib/error-text';
import { useLanguage } from '../../../lib/ui-state';
import { todayIn, zonedInstant } from '../../../lib/zoned-time';
import { useAvailabilityExceptions } from '../api/get-availability-exceptions';
import { useDeleteAvailabilityException } from '../api/delete-availability-exception';
import { AddExceptionModal } from './AddExceptionModal';
import classes from './Schedule.module.css';
import { formatInstantRange, formatTimeZoneName } from '../../../lib/clock';

/** "lun 23 nov 2026, 9:00 – 13:00" in the doctor's zone (the day written once when it is the same). */
export function formatExceptionRange(
  exception: Pick<AvailabilityException, 'startsAt' | 'endsAt'>,
  language: string,
  timeZone: string,
): string {
  const options: Intl.DateTimeFormatOptions = {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  };
  try {
    return formatInstantRange(exception.startsAt, exception.endsAt, language, timeZone, options);
  } catch {
    return `${exception.startsAt} – ${exception.endsAt}`;
  }
}

/** The exceptions tab: upcoming time off and extra hours (optionally the past ones too), add, delete. */
export function ExceptionsPanel({ doctorId, timeZone }: { doctorId: string; timeZone: string }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const errorText = useApiErrorText();
  const [includePast, setIncludePast] = useState(false);
  const [isAdding, setIsAdding] = useState(false);
  const [toDelete, setToDelete] = useState<AvailabilityException | null>(null);
  const listWindow = useMemo(
    () => (includePast ? {} : { from: zonedInstant(todayIn(timeZone), 0, timeZone).toISOString() }),
    [includePast, timeZone],
  );
  const exceptions = useAvailabilityExceptions(doctorId, listWindow);
  const remove = useDeleteAvailabilityException(doctorId);

  const handleDelete = async () => {
    if (!toDelete) {
      return;
    }
    try {
      await remove.mutateAsync(toDelete.id);
      setToDelete(null);
    } catch {
      // Shown inside the dialog (remove.error).
    }
  };

  return (
    <Stack gap="md" data-testid="schedule-exceptions">
      <Group justify="space-between" gap="sm">
        <Text size="sm" c="gray.7" style={{ flex: '1 1 320px' }}>
          {t('schedule.exceptions.intro', { zone: formatTimeZoneName(timeZone, language) })}
        </Text>
        <Button
          leftSection={<IconPlus size={16} />}
          onClick={() => setIsAdding(true)}
          data-testid="schedule-exception-add"
        >
          {t('schedule.exceptions.add')}
        </Button>
      </Group>
      <Switch
        label={t('schedule.exceptions.includePast')}
        checked={includePast}
        onChange={(event) => setIncludePast(event.currentTarget.checked)}
        data-testid="schedule-exceptions-past"
      />
      {exceptions.isPending ? (
        <Loader />
      ) : exceptions.isError ? (
        <Alert color="red" variant="light">
          {errorText(exceptions.error)}
        </Alert>
      ) : exceptions.data.length === 0 ? (
        <div className={classes.empty} data-testid="schedule-exceptions-empty">
          <Text fw={600}>{t('schedule.exceptions.emptyTitle')}</Text>
          <Text size="sm" c="gray.7">
            {t('schedule.exceptions.emptyBody')}
          </Text>
        </div>
      ) : (
        <ul className={classes.exceptionList}>
          {exceptions.data.map((exception) => (
            <li key={exception.id} className={classes.exceptionRow} data-testid="schedule-exception">
              <Stack gap={4} style={{ minWidth: 0, flex: 1 }}>
                <Group gap="xs">
                  <Badge
                    variant="light"
                    color={exception.kind === 'time_off' ? 'orange' : 'green'}
                    tt="none"
                    data-testid="schedule-exception-kind"
                  >
                    {t(`schedule.exceptions.kind.${exception.kind}`)}
                  </Badge>
                  <Text size="sm" fw={600} data-testid="schedule-exception-when">
                    {formatExceptionRange(exception, language, timeZone)}
                  </Text>
                </Group>
                {exception.reason ? (
                  <Text size="sm" c="gray.7" className={classes.reason}>
                    {exception.reason}
                  </Text>
                ) : null}
              </Stack>
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={t('schedule.exceptions.delete')}
                onClick={() => {
                  remove.reset();
                  setToDelete(exception);
                }}
                data-testid="schedule-exception-delete"
              >
                <IconTrash size={18} />
              </ActionIcon>
            </li>
          ))}
        </ul>
      )}
      <AddExceptionModal
        opened={isAdding}
        doctorId={doctorId}
        timeZone={timeZone}
        onClose={() => setIsAdding(false)}
      />
      <ConfirmDialog
        opened={toDelete !== null}
        title={t('schedule.exceptions.deleteTitle')}
        confirmLabel={t('schedule.exceptions.deleteConfirm')}
        isDestructive
        isPending={remove.isPending}
        error={remove.isError ? errorText(remove.error) : undefined}
        onConfirm={() => void handleDelete()}
        onCancel={() => setToDelete(null)}
        testId="schedule-exception-delete-dialog"
      >
        {toDelete
          ? t(
              toDelete.kind === 'time_off'
                ? 'schedule.exceptions.deleteBodyTimeOff'
                : 'schedule.exceptions.deleteBodyExtra',
              { when: formatExceptionRange(toDelete, language, timeZone) },
            )
          : null}
      </ConfirmDialog>
    </Stack>
  );
}
