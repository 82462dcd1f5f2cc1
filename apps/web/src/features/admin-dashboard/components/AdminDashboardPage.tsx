import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/Skeleton.layer.css';
import '@mantine/core/styles/SimpleGrid.layer.css';
import '@mantine/core/styles/SegmentedControl.layer.css';
import { Alert, SimpleGrid, Skeleton, Stack } from '@mantine/core';
import { hasAnyPermission } from '@telemedicina/shared/permission-check';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { SectionForbidden } from '../../../components/section-page/SectionForbidden';
import { SectionHeader } from '../../../components/section-page/SectionHeader';
import pageClasses from '../../../components/section-page/SectionPage.module.css';
import { useApiErrorText } from '../../../lib/error-text';
import { usePublicConfig } from '../../../lib/public-config';
import { useMe } from '../../../lib/session';
import { usePermissions } from '../../../lib/ui-state';
import { useDashboard } from '../api/get-dashboard';
import { readRange, todayIn } from '../dashboard-range';
import { AppointmentsPerDayChart, NewPatientsChart, VisitsPerDoctorChart } from './DashboardCharts';
import classes from './Dashboard.module.css';
import { RangeControl } from './RangeControl';
import { StatCards } from './StatCards';
import { useViewerTimeZone } from '../../../lib/use-clock';

/**
 * `/admin` for users with `dashboard.admin`: the clinic's activity over a chosen range (last 7,
 * 30 or 90 days, or custom; kept in the address) — counts, appointments per day by status, new
 * patients per day and visits per doctor, all computed by the server.
 */
export function AdminDashboardPage() {
  const { t } = useTranslation();
  // The session's own list first: the shared permission state is filled an effect later.
  const sharedPermissions = usePermissions();
  const isAllowed = hasAnyPermission(useMe().data?.permissions ?? sharedPermissions, ['dashboard.admin']);
  return (
    <div className={pageClasses.page} data-testid="clinic-dashboard">
      {isAllowed ? (
        <DashboardContent />
      ) : (
        <>
          <SectionHeader title={t('adminDashboard.title')} description={t('adminDashboard.description')} />
          <SectionForbidden />
        </>
      )}
    </div>
  );
}

function DashboardContent() {
  const { t } = useTranslation();
  const errorText = useApiErrorText();
  const clinicZone = usePublicConfig().data?.clinic?.timeZone;
  const userZone = useViewerTimeZone();
  const today = todayIn(clinicZone ?? userZone);
  const [searchParams, setSearchParams] = useSearchParams();
  const range = readRange(searchParams, today);
  const dashboard = useDashboard({ from: range.from, to: range.to });

  return (
    <>
      <SectionHeader title={t('adminDashboard.title')} description={t('adminDashboard.description')}>
        <RangeControl
          range={range}
          today={today}
          onChange={(next) => setSearchParams(next, { replace: true })}
        />
      </SectionHeader>
      {dashboard.isPending ? (
        <Stack gap="lg" aria-busy="true">
          <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="md">
            {[0, 1, 2, 3, 4, 5].map((index) => (
              <Skeleton key={index} height={104} radius="lg" />
            ))}
          </SimpleGrid>
          <Skeleton height={340} radius="lg" />
        </Stack>
      ) : dashboard.isError ? (
        <Alert color="red" variant="light" data-testid="dashboard-error">
          {errorText(dashboard.error)}
        </Alert>
      ) : (
        <Stack gap="lg" className={dashboard.isPlaceholderData ? classes.refreshing : undefined}>
          <StatCards data={dashboard.data} />
          <AppointmentsPerDayChart data={dashboard.data} />
          <div className={classes.chartRow}>
            <NewPatientsChart data={dashboard.data} />
            <VisitsPerDoctorChart data={dashboard.data} />
          </div>
        </Stack>
      )}
    </>
  );
}
