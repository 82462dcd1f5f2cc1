import '@mantine/core/styles/Alert.layer.css';
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { Appointment } from '@telemedicina/shared/appointment';
import { slotTakenDetailsSchema } from '@telemedicina/shared/booking';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AppModal } from '../../../components/modal/AppModal';
import { formatLongDateTime, formatShortDateTime, SlotPicker } from '../../../components/slot-picker';
import { ApiError } from '../../../lib/api-client';
import { useApiErrorText } from '../../../lib/error-text';
import { useLanguage } from '../../../lib/ui-state';
import { useRescheduleAppointment } from '../api/appointments';

export interface RescheduleModalProps {
  opened: boolean;
  appointment: Appointment;
  viewerTimeZone: string;
  onClose: () => void;
}

/** Moves an appointment: the doctor's slot picker, then a confirmation of the new time. */
export function RescheduleModal({ opened, appointment, viewerTimeZone, onClose }: RescheduleModalProps) {
  const { t } = useTranslation();
  const language = useLanguage();
  const errorText = useApiErrorText();
  const reschedule = useRescheduleAppointment();
  const [chosen, setChosen] = useState<string | null>(null);

  const close = () => {
    reschedule.reset();
    setChosen(null);
    onClose();
  };
  const choose = (startsAt: string) => {
    reschedule.reset();
    setChosen(startsAt);
  };
  const alternatives =
    reschedule.error instanceof ApiError && reschedule.error.code === 'SLOT_TAKEN'
      ? (slotTakenDetailsSchema.safeParse(reschedule.error.details).data?.nextSlots ?? [])
      : [];

  return (
    <AppModal
      opened={opened}
      onClose={close}
      size="xl"
      title={<Text fw={650}>{t('appointments.reschedule.title')}</Text>}
    >
      <Stack gap="md" data-testid="reschedule-dialog">
        <Text size="sm">
          {t('appointments.reschedule.current', {
            time: formatLongDateTime(appointment.startsAt, language, viewerTimeZone),
          })}
        </Text>
        <SlotPicker
          doctorId={appointment.doctor.id}
          doctorTimeZone={appointment.doctor.timeZone}
          viewerTimeZone={viewerTimeZone}
          onPick={(slot) => choose(slot.startsAt)}
          selected={chosen}
        />
        {reschedule.error ? (
          <Alert color="red" variant="light" icon={<IconAlertTriangle />} data-testid="reschedule-error">
            <Stack gap="xs">
              <Text size="sm">{errorText(reschedule.error)}</Text>
              {alternatives.length > 0 ? (
                <Group gap="xs">
                  {alternatives.map((slot) => (
                    <Button
                      key={slot.startsAt}
                      size="compact-sm"
                      variant="white"
                      onClick={() => choose(slot.startsAt)}
                      data-testid="reschedule-alternative"
                    >
                      {formatShortDateTime(slot.startsAt, language, viewerTimeZone)}
                    </Button>
                  ))}
                </Group>
              ) : null}
            </Stack>
          </Alert>
        ) : null}
        <Group justify="space-between" gap="sm">
          <Text size="sm" fw={600} data-testid="reschedule-chosen">
            {chosen
              ? t('appointments.reschedule.chosen', {
                  time: formatLongDateTime(chosen, language, viewerTimeZone),
                })
              : t('appointments.reschedule.pick')}
          </Text>
          <Group gap="sm">
            <Button variant="default" onClick={close} disabled={reschedule.isPending}>
              {t('common.cancel')}
            </Button>
            <Button
              disabled={!chosen}
              loading={reschedule.isPending}
              onClick={() =>
                chosen
                  ? reschedule.mutate({ id: appointment.id, startsAt: chosen }, { onSuccess: close })
                  : undefined
              }
              data-testid="reschedule-confirm"
            >
              {t('appointments.reschedule.confirm')}
            </Button>
          </Group>
        </Group>
      </Stack>
    </AppModal>
  );
}
