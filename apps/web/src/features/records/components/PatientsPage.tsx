import { Text } from '@mantine/core';
import type { PatientSummary } from '@telemedicina/shared/records';
import { useTranslation } from 'react-i18next';
import { ListPage, ListPageFrame } from '../../../components/list-page';
import type { ListTableColumn } from '../../../components/list-table';
import { formatDateTime } from '../../../lib/format';
import { useHasAnyPermission, useLanguage } from '../../../lib/ui-state';
import { useListParams } from '../../../lib/use-list-params';
import { usePatients } from '../api/get-patients';
import { formatCalendarDate } from './chart-format';
import { useViewerTimeZone } from '../../../lib/use-clock';

/**
 * `/admin/patients`: a doctor's own patients (records.read) or every patient for staff
 * (patients.read.admin), searched by name or email, in the spec's pagination. A row opens the chart.
 */
export function PatientsPage() {
  const { t } = useTranslation();
  return (
    <ListPageFrame
      testId="patients-page"
      title={t('admin.nav.patients')}
      description={t('records.list.description')}
      permissions={['records.read', 'patients.read.admin']}
    >
      <PatientsList />
    </ListPageFrame>
  );
}

function PatientsList() {
  const { t } = useTranslation();
  const language = useLanguage();
  const timeZone = useViewerTimeZone();
  const isStaff = useHasAnyPermission(['patients.read.admin']);
  const params = useListParams({ sorts: ['name'], defaultSort: 'name' });
  const result = usePatients({ page: params.query.page, pageSize: params.query.pageSize, q: params.query.q });

  const columns: ListTableColumn<PatientSummary>[] = [
    {
      accessor: 'name',
      title: t('records.list.columns.name'),
      render: (patient) => (
        <>
          <Text fw={600} size="sm" data-testid="patient-row-name">
            {patient.name}
          </Text>
          <Text size="xs" c="gray.7" hiddenFrom="sm">
            {patient.email}
          </Text>
        </>
      ),
    },
    {
      accessor: 'email',
      title: t('records.list.columns.email'),
      visibleFrom: 'sm',
      render: (patient) => <Text size="sm">{patient.email}</Text>,
    },
    {
      accessor: 'dateOfBirth',
      title: t('records.list.columns.dateOfBirth'),
      visibleFrom: 'md',
      render: (patient) => (
        <Text size="sm">{patient.dateOfBirth ? formatCalendarDate(patient.dateOfBirth, language) : '—'}</Text>
      ),
    },
    {
      accessor: 'lastVisitAt',
      title: t('records.list.columns.lastVisit'),
      visibleFrom: 'xs',
      render: (patient) => (
        <Text size="sm" data-testid="patient-row-last-visit">
          {patient.lastVisitAt ? formatDateTime(patient.lastVisitAt, language, timeZone) : '—'}
        </Text>
      ),
    },
    {
      accessor: 'nextVisitAt',
      title: t('records.list.columns.nextVisit'),
      visibleFrom: 'xs',
      render: (patient) => (
        <Text size="sm" data-testid="patient-row-next-visit">
          {patient.nextVisitAt ? formatDateTime(patient.nextVisitAt, language, timeZone) : '—'}
        </Text>
      ),
    },
  ];

  return (
    <ListPage
      title={t('admin.nav.patients')}
      description={isStaff ? t('records.list.descriptionStaff') : t('records.list.description')}
      searchPlaceholder={t('records.list.search')}
      query={result}
      params={params}
      testId="patients-table"
      columns={columns}
      emptyText={t('records.list.empty')}
      getRowHref={(patient) => `/admin/patients/${patient.id}`}
    />
  );
}
