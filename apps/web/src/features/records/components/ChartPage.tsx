import '@mantine/core/styles/Alert.layer.css';
import { Alert, Anchor, Button, Center, Loader, Stack, Text } from '@mantine/core';
import { IconArrowLeft, IconLock } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { SectionForbidden } from '../../../components/section-page/SectionForbidden';
import pageClasses from '../../../components/section-page/SectionPage.module.css';
import { ApiError } from '../../../lib/api-client';
import { useApiErrorText } from '../../../lib/error-text';
import { useHasAnyPermission } from '../../../lib/ui-state';
import { useChart } from '../api/get-chart';
import { ChartView } from './ChartView';
import { EmergencyAccessModal } from './EmergencyAccessModal';
import { ExportRecordAction } from './ExportRecordAction';

/** What other features add to a chart (its visit notes), composed in `app/`. */
export interface ChartSlots {
  renderNotes?: (patientId: string) => ReactNode;
}

/**
 * `/admin/patients/:patientId`: a patient's chart for their doctors (and staff: administrative
 * part). A doctor who is not the patient's gets 404 from the server; with records.emergency the
 * page offers the reasoned, audited emergency access instead.
 */
export function ChartPage({ renderNotes }: ChartSlots = {}) {
  const { t } = useTranslation();
  const isAllowed = useHasAnyPermission(['records.read', 'records.read.own', 'patients.read.admin']);
  const { patientId = '' } = useParams();
  return (
    <div className={pageClasses.page} data-testid="chart-page">
      <Anchor component={Link} to="/admin/patients" size="sm" mb="md" display="inline-flex">
        <IconArrowLeft size={16} aria-hidden style={{ marginInlineEnd: 4 }} />
        {t('records.backToList')}
      </Anchor>
      {isAllowed ? (
        <PatientChart key={patientId} patientId={patientId} renderNotes={renderNotes} />
      ) : (
        <SectionForbidden />
      )}
    </div>
  );
}

function PatientChart({ patientId, renderNotes }: { patientId: string } & ChartSlots) {
  const { t } = useTranslation();
  const errorText = useApiErrorText();
  const canUseEmergency = useHasAnyPermission(['records.emergency']);
  const [showRemoved, setShowRemoved] = useState(false);
  const [isEmergencyOpen, setIsEmergencyOpen] = useState(false);
  const chart = useChart(patientId, showRemoved);

  if (chart.isPending) {
    return (
      <Center py="xl">
        <Loader />
      </Center>
    );
  }
  if (chart.isError) {
    const isNotFound = chart.error instanceof ApiError && chart.error.status === 404;
    return (
      <>
        <Alert
          color={isNotFound ? 'gray' : 'red'}
          variant="light"
          icon={<IconLock />}
          title={isNotFound ? t('records.notFound.title') : undefined}
          data-testid="chart-not-found"
        >
          <Stack gap="sm" align="flex-start">
            <Text size="sm">
              {isNotFound
                ? canUseEmergency
                  ? t('records.notFound.emergencyText')
                  : t('records.notFound.text')
                : errorText(chart.error)}
            </Text>
            {isNotFound && canUseEmergency ? (
              <Button
                color="orange"
                onClick={() => setIsEmergencyOpen(true)}
                data-testid="chart-emergency-open"
              >
                {t('records.emergency.open')}
              </Button>
            ) : null}
          </Stack>
        </Alert>
        <EmergencyAccessModal
          patientId={patientId}
          opened={isEmergencyOpen}
          onClose={() => setIsEmergencyOpen(false)}
        />
      </>
    );
  }
  return (
    <ChartView
      chart={chart.data}
      showRemoved={showRemoved}
      onShowRemovedChange={setShowRemoved}
      notes={renderNotes?.(patientId)}
      actions={<ExportRecordAction patientId={patientId} patientName={chart.data.demographics.name} />}
    />
  );
}
