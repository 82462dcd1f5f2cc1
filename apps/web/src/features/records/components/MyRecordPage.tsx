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
import { ChartView } from './ChartView';

/** `/admin/my-record`: the signed-in patient's own chart (clinical lists read-only, contact details editable). */
export function MyRecordPage() {
  const isAllowed = useHasAnyPermission(['records.read.own']);
  const patientId = useMe().data?.user.id;
  return (
    <div className={pageClasses.page} data-testid="my-record-page">
      {isAllowed && patientId ? <OwnChart patientId={patientId} /> : <SectionForbidden />}
    </div>
  );
}

function OwnChart({ patientId }: { patientId: string }) {
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
      actions={
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
      }
    />
  );
}
