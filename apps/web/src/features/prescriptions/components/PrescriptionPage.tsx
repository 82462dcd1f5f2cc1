import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/Badge.layer.css';
import '@mantine/core/styles/Paper.layer.css';
import { Alert, Badge, Button, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { IconDownload, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import pageClasses from '../../../components/section-page/SectionPage.module.css';
import { formatDateTime } from '../../../lib/format';
import { useViewerTimeZone } from '../../../lib/use-clock';
import { useApiErrorText } from '../../../lib/error-text';
import { useLanguage } from '../../../lib/ui-state';
import { prescriptionPdfUrl, usePrescription } from '../api/get-prescription';
import { CancelPrescriptionModal } from './CancelPrescriptionModal';
import { PrescriptionItems } from './PrescriptionItems';
import classes from './Prescriptions.module.css';

/**
 * `/admin/prescriptions/:id`: the prescription as issued (doctor, patient, medications, notes),
 * its verification code, the PDF download, and "Cancel" for the doctor who issued it.
 */
export function PrescriptionPage() {
  const { t } = useTranslation();
  const language = useLanguage();
  const timeZone = useViewerTimeZone();
  const errorText = useApiErrorText();
  const { id = '' } = useParams();
  const prescription = usePrescription(id);
  const [isCancelling, setIsCancelling] = useState(false);

  if (prescription.isPending) {
    return (
      <div className={pageClasses.page}>
        <Loader />
      </div>
    );
  }
  if (prescription.isError) {
    return (
      <div className={pageClasses.page}>
        <Alert color="red" variant="light" data-testid="prescription-load-error">
          {errorText(prescription.error)}
        </Alert>
      </div>
    );
  }
  const item = prescription.data;
  const isCancelled = item.status === 'cancelled';

  return (
    <div className={pageClasses.page} data-testid="prescription-page">
      <Stack gap="lg">
        <Group justify="space-between" align="flex-start" gap="sm">
          <Stack gap={4} style={{ minWidth: 0, flex: '1 1 320px' }}>
            <Title order={1} className={pageClasses.title}>
              {t('prescriptions.page.title')}
            </Title>
            <Text c="gray.7">
              {t('prescriptions.page.issuedOn', { date: formatDateTime(item.issuedAt, language, timeZone) })}
            </Text>
          </Stack>
          <Badge
            size="lg"
            color={isCancelled ? 'red' : 'teal'}
            variant="light"
            data-testid="prescription-status"
          >
            {t(`prescriptions.status.${item.status}`)}
          </Badge>
        </Group>
        {isCancelled ? (
          <Alert
            color="red"
            variant="light"
            title={t('prescriptions.page.cancelledTitle')}
            data-testid="prescription-cancelled"
          >
            {item.cancelledAt
              ? t('prescriptions.page.cancelledOn', {
                  date: formatDateTime(item.cancelledAt, language, timeZone),
                })
              : null}
            {item.cancellationReason
              ? ` ${t('prescriptions.page.reason', { reason: item.cancellationReason })}`
              : null}
          </Alert>
        ) : null}
        <Paper withBorder radius="md" p="md">
          <dl className={`${pageClasses.facts} ${classes.facts}`}>
            <dt>{t('prescriptions.page.doctor')}</dt>
            <dd data-testid="prescription-doctor">
              {item.doctor.name}
              {item.doctor.licenseNumber
                ? ` · ${t('prescriptions.page.license', { license: item.doctor.licenseNumber })}`
                : ''}
            </dd>
            <dt>{t('prescriptions.page.patient')}</dt>
            <dd data-testid="prescription-patient">{item.patient.name}</dd>
            <dt>{t('prescriptions.page.code')}</dt>
            <dd>
              <span className={classes.code} data-testid="prescription-code">
                {item.verificationCode}
              </span>
            </dd>
          </dl>
        </Paper>
        <Paper withBorder radius="md" p="md">
          <Title order={2} size="h4" mb="xs">
            {t('prescriptions.page.medications')}
          </Title>
          <PrescriptionItems items={item.items} />
          {item.notes ? (
            <Stack gap={2} mt="md">
              <Text size="xs" c="gray.7">
                {t('prescriptions.fields.notes')}
              </Text>
              <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} data-testid="prescription-notes-view">
                {item.notes}
              </Text>
            </Stack>
          ) : null}
        </Paper>
        <Group gap="sm">
          <Button
            component="a"
            href={prescriptionPdfUrl(item.id)}
            leftSection={<IconDownload size={16} />}
            data-testid="prescription-pdf"
          >
            {t('prescriptions.page.downloadPdf')}
          </Button>
          {item.isIssuer && !isCancelled ? (
            <Button
              variant="light"
              color="red"
              leftSection={<IconX size={16} />}
              onClick={() => setIsCancelling(true)}
              data-testid="prescription-cancel"
            >
              {t('prescriptions.page.cancel')}
            </Button>
          ) : null}
        </Group>
        <Text size="sm" c="gray.7">
          {t('prescriptions.page.verifyHint', { url: item.verificationUrl })}
        </Text>
      </Stack>
      <CancelPrescriptionModal
        opened={isCancelling}
        prescriptionId={item.id}
        onClose={() => setIsCancelling(false)}
      />
    </div>
  );
}
