import '@mantine/core/styles/ModalBase.layer.css';
import '@mantine/core/styles/Modal.layer.css';
import '@mantine/core/styles/Overlay.layer.css';
import '@mantine/core/styles/CloseButton.layer.css';
import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/Alert.layer.css';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, Loader, Stack, Text, Textarea } from '@mantine/core';
import { IconFileZip, IconInfoCircle } from '@tabler/icons-react';
import {
  adminRecordExportRequestSchema,
  recordExportReasonMaxLength,
  recordExportReasonMinLength,
} from '@telemedicina/shared/export';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { AppModal } from '../../../components/modal/AppModal';
import { useApiErrorText } from '../../../lib/error-text';
import { applyServerFieldErrors } from '../../../lib/form-errors';
import { useHasAnyPermission } from '../../../lib/ui-state';
import { useExportPatientRecord } from '../api/export-record';
import { useExportProgressText } from './RecordExportButton';
import { useRecordFieldText } from './use-record-field-text';

export interface ExportRecordActionProps {
  patientId: string;
  patientName: string;
}

/**
 * "Export record" on a patient's chart for those who hold records.export (administrators): a
 * modal asks why (audited, and the patient is told), then the ZIP file downloads.
 */
export function ExportRecordAction({ patientId, patientName }: ExportRecordActionProps) {
  const { t } = useTranslation();
  const canExport = useHasAnyPermission(['records.export']);
  const [isOpen, setIsOpen] = useState(false);
  if (!canExport) {
    return null;
  }
  return (
    <>
      <Button
        size="xs"
        variant="default"
        leftSection={<IconFileZip size={16} aria-hidden />}
        onClick={() => setIsOpen(true)}
        data-testid="chart-export-open"
      >
        {t('recordExport.admin.open')}
      </Button>
      {isOpen ? (
        <ExportRecordModal patientId={patientId} patientName={patientName} onClose={() => setIsOpen(false)} />
      ) : null}
    </>
  );
}

function ExportRecordModal({
  patientId,
  patientName,
  onClose,
}: ExportRecordActionProps & { onClose: () => void }) {
  const { t } = useTranslation();
  const fieldText = useRecordFieldText();
  const errorText = useApiErrorText();
  const progressText = useExportProgressText();
  const exporting = useExportPatientRecord(patientId);
  const [failure, setFailure] = useState<unknown>(null);
  const form = useForm<
    z.input<typeof adminRecordExportRequestSchema>,
    unknown,
    z.output<typeof adminRecordExportRequestSchema>
  >({ resolver: zodResolver(adminRecordExportRequestSchema), defaultValues: { reason: '' } });
  const handleSubmit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      await exporting.mutateAsync(values);
      onClose();
    } catch (error) {
      if (!applyServerFieldErrors(error, form.setError, ['reason'])) {
        setFailure(error);
      }
    }
  });
  const handleClose = () => {
    if (!exporting.isPending) {
      onClose();
    }
  };
  return (
    <AppModal
      opened
      onClose={handleClose}
      isStatic
      withCloseButton={!exporting.isPending}
      title={<Text fw={650}>{t('recordExport.admin.title', { name: patientName })}</Text>}
      size="lg"
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void handleSubmit();
        }}
        data-testid="record-export-dialog"
      >
        <Stack gap="md">
          <Alert color="blue" variant="light" icon={<IconInfoCircle />}>
            <Text size="sm">{t('recordExport.admin.warning')}</Text>
          </Alert>
          <Textarea
            label={t('recordExport.admin.reason')}
            description={t('recordExport.admin.reasonHint', {
              min: recordExportReasonMinLength,
              max: recordExportReasonMaxLength,
            })}
            required
            rows={4}
            maxLength={recordExportReasonMaxLength + 50}
            data-autofocus
            disabled={exporting.isPending}
            {...form.register('reason')}
            error={fieldText(form.formState.errors.reason?.message)}
            data-testid="record-export-reason"
          />
          {failure !== null ? (
            <Alert color="red" variant="light" role="alert" data-testid="record-export-failure">
              <Text size="sm">{errorText(failure)}</Text>
            </Alert>
          ) : null}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={handleClose} disabled={exporting.isPending}>
              {t('records.add.cancel')}
            </Button>
            <Button
              type="submit"
              leftSection={exporting.isPending ? <Loader size={14} /> : <IconFileZip size={16} aria-hidden />}
              aria-busy={exporting.isPending}
              disabled={exporting.isPending}
              data-testid="record-export-confirm"
            >
              {exporting.isPending ? progressText(exporting.progress) : t('recordExport.admin.confirm')}
            </Button>
          </Group>
        </Stack>
      </form>
    </AppModal>
  );
}
