import { Button, Center, Loader } from '@mantine/core';
import { IconHistory } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { SectionForbidden } from '../../../components/section-page/SectionForbidden';
import pageClasses from '../../../components/section-page/SectionPage.module.css';
import { useApiErrorText } from '../../../lib/error-text';
import { useMe } from '../../../lib/session';
import { useHasAnyPermission } from '../../../lib/ui-state';
import { useChart } from '../api/get-chart';
import type { ChartSlots } from './ChartPage';
import { ChartView } from './ChartView';
import { RecordExportButton } from './RecordExportButton';

/** `/admin/my-record`: the signed-in patient's own chart (clinical lists read-only, contact details editable). */
export function MyRecordPage({ renderNotes }: ChartSlots = {}) {
  const isAllowed = useHasAnyPermission(['records.read.own']);
  const patientId = useMe().data?.user.id;
  return (
    <div className={pageClasses.page} data-testid="my-record-page">
      {isAllowed && patientId ? (
        <OwnChart patientId={patientId} renderNotes={renderNotes} />
      ) : (
        <SectionForbidden />
      )}
    </div>
  );
}

function OwnChart({ patientId, renderNotes }: { patientId: string } & ChartSlots) {
  const { t } = useTranslation();
  const errorText = useApiErrorText();
  const [showRemoved, setShowRemoved] = useState(false);
  const chart = useChart(patientId, showRemoved);
  if (chart.isPending) {
    return (
      <Center py="xl">
        <Loader />
      </Center>
    );
  }
  if (chart.isError) {
    return <>{errorText(chart.error)}</>;
  }
  return (
    <ChartView
      chart={chart.data}
      showRemoved={showRemoved}
      onShowRemovedChange={setShowRemoved}
      notes={renderNotes?.(patientId)}
      actions={
        <>
          <RecordExportButton />
          <Button
            component={Link}
            to="/admin/profile/record-access"
            variant="default"
            size="xs"
            leftSection={<IconHistory size={16} />}
            data-testid="my-record-access-log"
          >
            {t('accessLog.open')}
          </Button>
        </>
      }
    />
  );
}
