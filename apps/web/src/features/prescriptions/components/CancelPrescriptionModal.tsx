import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/Input.layer.css';
import { Alert, Button, Group, Stack, Text, Textarea } from '@mantine/core';
import { cancelPrescriptionRequestSchema } from '@telemedicina/shared/prescriptions';
import type { ParseKeys } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AppModal } from '../../../components/modal/AppModal';
import { useApiErrorText } from '../../../lib/error-text';
import { useCancelPrescription } from '../api/cancel-prescription';

/** Cancels a prescription (the issuer), with the reason the verification page will not show. */
export function CancelPrescriptionModal({
  opened,
  prescriptionId,
  onClose,
}: {
  opened: boolean;
  prescriptionId: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const errorText = useApiErrorText();
  const cancel = useCancelPrescription(prescriptionId);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);

  const close = () => {
    cancel.reset();
    setReasonError(null);
    onClose();
  };

  const confirm = () => {
    const parsed = cancelPrescriptionRequestSchema.safeParse({ reason });
    if (!parsed.success) {
      setReasonError(t((parsed.error.issues[0]?.message ?? 'validation.invalid') as ParseKeys));
      return;
    }
    setReasonError(null);
    cancel.mutate(parsed.data.reason, { onSuccess: close });
  };

  return (
    <AppModal
      opened={opened}
      onClose={close}
      isStatic
      centered
      title={<Text fw={650}>{t('prescriptions.cancel.title')}</Text>}
    >
      <Stack gap="md" data-testid="prescription-cancel-dialog">
        <Text size="sm">{t('prescriptions.cancel.body')}</Text>
        <Textarea
          label={t('prescriptions.cancel.reason')}
          required
          rows={3}
          maxLength={500}
          value={reason}
          onChange={(event) => setReason(event.currentTarget.value)}
          error={reasonError}
          data-testid="prescription-cancel-reason"
        />
        {cancel.error ? (
          <Alert color="red" variant="light">
            {errorText(cancel.error)}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {t('prescriptions.cancel.keep')}
          </Button>
          <Button
            color="red"
            loading={cancel.isPending}
            onClick={confirm}
            data-testid="prescription-cancel-confirm"
          >
            {t('prescriptions.cancel.confirm')}
          </Button>
        </Group>
      </Stack>
    </AppModal>
  );
}
