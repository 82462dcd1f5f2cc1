import '@mantine/core/styles/ModalBase.layer.css';
import '@mantine/core/styles/Modal.layer.css';
import '@mantine/core/styles/Overlay.layer.css';
import '@mantine/core/styles/CloseButton.layer.css';
import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/Alert.layer.css';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, Stack, Text, Textarea } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { emergencyAccessMinutes, emergencyAccessRequestSchema } from '@telemedicina/shared/records';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { AppModal } from '../../../components/modal/AppModal';
import { publishApiErrorAlert } from '../../../lib/api-client';
import { applyServerFieldErrors } from '../../../lib/form-errors';
import { useRequestEmergencyAccess } from '../api/request-emergency-access';
import { useRecordFieldText } from './use-record-field-text';

export interface EmergencyAccessModalProps {
  patientId: string;
  opened: boolean;
  onClose: () => void;
}

/**
 * Emergency access to the chart of someone who is not the doctor's patient: a written reason
 * (20 characters at least), a clear warning that it is audited and that the patient will see it.
 */
export function EmergencyAccessModal({ patientId, opened, onClose }: EmergencyAccessModalProps) {
  const { t } = useTranslation();
  const fieldText = useRecordFieldText();
  const request = useRequestEmergencyAccess(patientId);
  const form = useForm<
    z.input<typeof emergencyAccessRequestSchema>,
    unknown,
    z.output<typeof emergencyAccessRequestSchema>
  >({ resolver: zodResolver(emergencyAccessRequestSchema), defaultValues: { reason: '' } });
  const handleSubmit = form.handleSubmit(async (values) => {
    try {
      await request.mutateAsync(values);
      onClose();
    } catch (error) {
      if (!applyServerFieldErrors(error, form.setError, ['reason'])) {
        publishApiErrorAlert(error);
      }
    }
  });
  return (
    <AppModal
      opened={opened}
      onClose={onClose}
      isStatic
      title={<Text fw={650}>{t('records.emergency.title')}</Text>}
      size="lg"
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void handleSubmit();
        }}
        data-testid="emergency-access-dialog"
      >
        <Stack gap="md">
          <Alert color="orange" variant="light" icon={<IconAlertTriangle />}>
            <Text size="sm">{t('records.emergency.warning', { minutes: emergencyAccessMinutes })}</Text>
          </Alert>
          <Textarea
            label={t('records.emergency.reason')}
            description={t('records.emergency.reasonHint')}
            required
            rows={4}
            data-autofocus
            {...form.register('reason')}
            error={fieldText(form.formState.errors.reason?.message)}
            data-testid="emergency-reason"
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {t('records.add.cancel')}
            </Button>
            <Button color="orange" type="submit" loading={request.isPending} data-testid="emergency-confirm">
              {t('records.emergency.confirm')}
            </Button>
          </Group>
        </Stack>
      </form>
    </AppModal>
  );
}
