import '@mantine/core/styles/Badge.layer.css';
import { Badge, Stack, Text } from '@mantine/core';
import { recordAccessActions, type AuditAction } from '@telemedicina/shared/audit-actions';
import type { RecordAccessEntry } from '@telemedicina/shared/records';
import { useTranslation } from 'react-i18next';
import { ListPage, ListPageFrame } from '../../../components/list-page';
import type { ListTableColumn } from '../../../components/list-table';
import { formatDateTime } from '../../../lib/format';
import { useLanguage } from '../../../lib/ui-state';
import { useListParams } from '../../../lib/use-list-params';
import { useRecordAccess } from '../api/get-record-access';
import { useViewerTimeZone } from '../../../lib/use-clock';

const knownRoles = ['doctor', 'staff', 'admin', 'patient'] as const;
const knownSections = [
  'chart',
  'profile',
  'allergies',
  'conditions',
  'medications',
  'documents',
  'document',
  'note',
  'notes',
  'vitals',
  'fhir',
] as const;
/** The FHIR resources a patient's record is read as (section `fhir`), each with its own words. */
const knownFhirResources = [
  'Patient',
  'Appointment',
  'Observation',
  'MedicationRequest',
  'DocumentReference',
  'Binary',
] as const;

/**
 * The words for one action in the patient's access log: every action the server can list there
 * (`recordAccessActions`, from the shared audit list) has its own (RecordAccessPage.test.tsx checks
 * both languages); one from another server version reads "another action on your record".
 */
export function recordAccessActionKey(action: string): string {
  if (!recordAccessActions.includes(action as AuditAction)) {
    return 'accessLog.actions.other';
  }
  const special: Partial<Record<string, string>> = {
    'record.viewed': 'accessLog.actions.viewed',
    'record.updated': 'accessLog.actions.updated',
    'record.emergency_access': 'accessLog.actions.emergency',
    'record.exported': 'accessLog.actions.exported',
  };
  return special[action] ?? `accessLog.actions.${action.replace('.', '_')}`;
}

/**
 * `/admin/profile/record-access`: the patient's access log — who viewed or changed their record
 * and when, from the audit trail, newest first; emergency accesses with the doctor's reason.
 */
export function RecordAccessPage() {
  const { t } = useTranslation();
  return (
    <ListPageFrame
      testId="record-access-page"
      title={t('accessLog.title')}
      description={t('accessLog.description')}
      permissions={['records.read.own']}
    >
      <AccessLog />
    </ListPageFrame>
  );
}

function AccessLog() {
  const { t } = useTranslation();
  const language = useLanguage();
  const timeZone = useViewerTimeZone();
  const params = useListParams({ sorts: ['at'], defaultSort: 'at', defaultOrder: 'desc' });
  const result = useRecordAccess({ page: params.query.page, pageSize: params.query.pageSize });

  const actionText = (entry: RecordAccessEntry) => {
    const section = knownSections.find((known) => known === entry.section);
    const resource = knownFhirResources.find((known) => known === entry.resourceType);
    return t(recordAccessActionKey(entry.action) as 'accessLog.actions.viewed', {
      section:
        section === 'fhir' && resource !== undefined
          ? t(`accessLog.fhirResources.${resource}`)
          : t(`accessLog.sections.${section ?? 'chart'}`),
    });
  };

  const columns: ListTableColumn<RecordAccessEntry>[] = [
    {
      accessor: 'at',
      title: t('accessLog.columns.when'),
      visibleFrom: 'sm',
      render: (entry) => (
        <Text size="sm" data-testid="access-row-when">
          {formatDateTime(entry.at, language, timeZone)}
        </Text>
      ),
    },
    {
      accessor: 'actor',
      title: t('accessLog.columns.who'),
      render: (entry) => {
        const role = knownRoles.find((known) => known === entry.actor?.roleKey);
        return (
          <Stack gap={0}>
            <Text size="sm" fw={600} data-testid="access-row-who">
              {entry.client
                ? t('accessLog.viaApp', {
                    app: entry.client.name,
                    person: entry.actor?.name ?? t('accessLog.unknownActor'),
                  })
                : (entry.actor?.name ?? t('accessLog.unknownActor'))}
            </Text>
            {entry.actor ? (
              <Text size="xs" c="gray.7">
                {role ? t(`accessLog.roles.${role}`) : (entry.actor.roleKey ?? '')}
              </Text>
            ) : null}
            <Text size="xs" c="gray.7" hiddenFrom="sm">
              {formatDateTime(entry.at, language, timeZone)}
            </Text>
          </Stack>
        );
      },
    },
    {
      accessor: 'action',
      title: t('accessLog.columns.what'),
      render: (entry) => (
        <Stack gap={4} align="flex-start">
          <Text size="sm" data-testid="access-row-what">
            {actionText(entry)}
          </Text>
          {entry.isEmergency ? (
            <Badge color="orange" variant="light" tt="none">
              {t('accessLog.emergency')}
            </Badge>
          ) : null}
          {entry.emergencyReason ? (
            <Text size="xs" c="gray.7" data-testid="access-row-reason">
              {t('accessLog.reason', { reason: entry.emergencyReason })}
            </Text>
          ) : null}
        </Stack>
      ),
    },
  ];

  return (
    <ListPage
      title={t('accessLog.title')}
      description={t('accessLog.description')}
      query={result}
      params={params}
      testId="record-access-table"
      columns={columns}
      emptyText={t('accessLog.empty')}
      getRowId={(entry) => String(entry.id)}
    />
  );
}
