import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/Input.layer.css';
import { Alert, Button, Group, Stack, Text, Textarea } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AppModal } from '../../../components/modal/AppModal';
import { ApiError } from '../../../lib/api-client';
import { useApiErrorText } from '../../../lib/error-text';
import { useCancelAppointment } from '../api/appointments';

export interface CancelAppointmentModalProps {
  opened: boolean;
  appointmentId: string;
  /** Doctors and staff must say why; patients may. */
  reasonRequired: boolean;
  onClose: () => void;
}

/**
 * Confirms a cancellation, with the reason (required for doctors and staff). A refusal is shown
 * inside; CANCELLATION_WINDOW_PASSED explains that it is too late to cancel online.
 */
export function CancelAppointmentModal({
  opened,
  appointmentId,
  reasonRequired,
  onClose,
}: CancelAppointmentModalProps) {
  const { t } = useTranslation();
  const errorText = useApiErrorText();
  const cancel = useCancelAppointment();
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const trimmed = reason.trim();

  const close = () => {
    cancel.reset();
    setReasonError(null);
    onClose();
  };

  const confirm = () => {
    if (reasonRequired && trimmed === '') {
      setReasonError(t('validation.reasonRequired'));
      return;
    }
    setReasonError(null);
    cancel.mutate({ id: appointmentId, reason: trimmed || undefined }, { onSuccess: close });
  };

  const isWindowPassed =
    cancel.error instanceof ApiError && cancel.error.code === 'CANCELLATION_WINDOW_PASSED';

  return (
    <AppModal
      opened={opened}
      onClose={close}
      isStatic
      centered
      title={<Text fw={650}>{t('appointments.cancel.title')}</Text>}
    >
      <Stack gap="md" data-testid="cancel-dialog">
        <Text size="sm">{t('appointments.cancel.body')}</Text>
        <Textarea
          label={t('appointments.cancel.reason')}
          required={reasonRequired}
          rows={3}
          maxLength={500}
          value={reason}
          onChange={(event) => setReason(event.currentTarget.value)}
          error={reasonError}
          data-testid="cancel-reason"
        />
        {cancel.error ? (
          <Alert color="red" variant="light" icon={<IconAlertTriangle />} data-testid="cancel-error">
            <Text size="sm">{errorText(cancel.error)}</Text>
            {isWindowPassed ? (
              <Text size="sm" mt={4}>
                {t('appointments.cancel.windowPassedHint')}
              </Text>
            ) : null}
          </Alert>
        ) : null}
        <Group justify="flex-end" gap="sm">
          <Button
            variant="default"
            onClick={close}
            disabled={cancel.isPending}
            data-testid="cancel-dialog-back"
          >
            {t('appointments.cancel.keep')}
          </Button>
          <Button
            color="red"
            onClick={confirm}
            loading={cancel.isPending}
            disabled={isWindowPassed}
            data-testid="cancel-dialog-confirm"
          >
            {t('appointments.cancel.confirm')}
          </Button>
        </Group>
      </Stack>
    </AppModal>
  );
}
