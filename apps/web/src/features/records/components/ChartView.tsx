import '@mantine/core/styles/Paper.layer.css';
import '@mantine/core/styles/Badge.layer.css';
import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/Switch.layer.css';
import '@mantine/core/styles/InlineInput.layer.css';
import '@mantine/core/styles/ActionIcon.layer.css';
import '@mantine/core/styles/Anchor.layer.css';
import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Paper,
  Stack,
  Switch,
  Text,
  Title,
} from '@mantine/core';
import { IconAlertTriangle, IconEdit, IconPlus, IconTrash } from '@tabler/icons-react';
import type { AppointmentStatus } from '@telemedicina/shared/common';
import type { Chart } from '@telemedicina/shared/records';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ConfirmDialog } from '../../../components/modal/ConfirmDialog';
import { appointmentStatusColors } from '../../../lib/appointment-status';
import { useApiErrorText } from '../../../lib/error-text';
import { formatDateTime } from '../../../lib/format';
import { useHasAnyPermission, useLanguage } from '../../../lib/ui-state';
import { useRemoveChartEntry, type ChartListKind } from '../api/remove-chart-entry';
import { AddEntryModal, type EntryKind } from './AddEntryModal';
import { DocumentsSection } from './DocumentsSection';
import { formatCalendarDate } from './chart-format';
import { ProfileModal } from './ProfileModal';
import classes from './Records.module.css';
import { useViewerTimeZone } from '../../../lib/use-clock';

export interface ChartViewProps {
  chart: Chart;
  showRemoved: boolean;
  onShowRemovedChange: (value: boolean) => void;
  /** Extra actions beside the title (the patient's link to their access log). */
  actions?: ReactNode;
  /** The visit notes section, composed in `app/` from the notes feature. */
  notes?: ReactNode;
}

/** Past visits listed before "Show all". */
const visitPreviewCount = 6;

const entryKindOf: Record<ChartListKind, EntryKind> = {
  allergies: 'allergy',
  conditions: 'condition',
  medications: 'medication',
};

function Fields({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className={classes.fields}>
      {rows.map(([label, value]) => (
        <div key={label} style={{ display: 'contents' }}>
          <dt>{label}</dt>
          <dd>{value === null || value === '' ? '—' : value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Section({
  title,
  action,
  children,
  testId,
}: {
  title: string;
  action?: ReactNode;
  children: ReactNode;
  testId: string;
}) {
  return (
    <Paper withBorder radius="md" p="md" className={classes.card} data-testid={testId}>
      <Group justify="space-between" mb="xs" wrap="nowrap">
        <Title order={2} size="h4">
          {title}
        </Title>
        {action ? <div className={classes.sectionAction}>{action}</div> : null}
      </Group>
      {children}
    </Paper>
  );
}

/**
 * The chart's sections: details (demographics, identity document, emergency contact), allergies,
 * conditions, medications, past visits, prescriptions and documents. Doctors (treating or under
 * emergency access) add and remove entries; the patient edits only their contact details; staff
 * see the administrative part.
 */
export function ChartView({ chart, showRemoved, onShowRemovedChange, actions, notes }: ChartViewProps) {
  const { t } = useTranslation();
  const language = useLanguage();
  const timeZone = useViewerTimeZone();
  const errorText = useApiErrorText();
  const canWrite = useHasAnyPermission(['records.write']);
  const canPrescribe = useHasAnyPermission(['prescriptions.write']);
  const canUploadDocuments = useHasAnyPermission(['documents.upload']);
  const isDoctor = chart.access === 'treating' || chart.access === 'emergency';
  const canEditClinical = isDoctor && canWrite;
  const canEditProfile = canEditClinical || chart.access === 'self';
  const [adding, setAdding] = useState<EntryKind | null>(null);
  const [isEditingProfile, setIsEditingProfile] = useState(false);
  const [showAllVisits, setShowAllVisits] = useState(false);
  const shownVisits = showAllVisits ? chart.visits : chart.visits.slice(0, visitPreviewCount);
  const [removing, setRemoving] = useState<{ kind: ChartListKind; id: string; label: string } | null>(null);
  const remove = useRemoveChartEntry(chart.patientId);
  const clinical = chart.clinical;
  const when = (iso: string) => formatDateTime(iso, language, timeZone);
  const date = (value: string | null) => (value ? formatCalendarDate(value, language) : null);

  const addButton = (kind: EntryKind) =>
    canEditClinical ? (
      <Button
        size="xs"
        variant="light"
        leftSection={<IconPlus size={16} />}
        onClick={() => setAdding(kind)}
        data-testid={`chart-add-${kind}`}
      >
        {t('records.add.button')}
      </Button>
    ) : null;

  const entry = (
    kind: ChartListKind,
    item: { id: string; removedAt: string | null; recordedAt: string; recordedBy: { name: string } | null },
    title: string,
    detail: string | null,
  ) => (
    <div
      key={item.id}
      className={`${classes.entry} ${item.removedAt ? classes.removed : ''}`}
      data-testid={`chart-${entryKindOf[kind]}`}
      data-removed={item.removedAt !== null}
    >
      <div className={classes.entryText}>
        <Text size="sm" fw={600} className={classes.entryTitle}>
          {title}
        </Text>
        {detail ? (
          <Text size="sm" c="gray.7">
            {detail}
          </Text>
        ) : null}
        <Text size="xs" c="gray.7">
          {item.removedAt
            ? t('records.removedOn', { time: when(item.removedAt) })
            : t('records.recordedBy', {
                time: when(item.recordedAt),
                name: item.recordedBy?.name ?? t('records.unknownPerson'),
              })}
        </Text>
      </div>
      {canEditClinical && item.removedAt === null ? (
        <ActionIcon
          variant="subtle"
          color="red"
          aria-label={t('records.remove.label', { name: title })}
          onClick={() => setRemoving({ kind, id: item.id, label: title })}
          data-testid="chart-remove"
        >
          <IconTrash size={18} />
        </ActionIcon>
      ) : null}
    </div>
  );

  const empty = (
    key: 'allergies' | 'conditions' | 'medications' | 'visits' | 'prescriptions' | 'documents',
  ) => (
    <Text size="sm" c="gray.7">
      {t(`records.empty.${key}`)}
    </Text>
  );

  return (
    <Stack gap="md" data-testid="chart" data-access={chart.access}>
      <Group justify="space-between" align="flex-end" gap="sm">
        <Stack gap={4}>
          <Title order={1} size="h2">
            {chart.demographics.name}
          </Title>
          <Group gap="xs">
            <Badge variant="light" tt="none" color={chart.access === 'emergency' ? 'orange' : 'blue'}>
              {t(`records.access.${chart.access}`)}
            </Badge>
            {chart.demographics.dateOfBirth ? (
              <Text size="sm" c="gray.7">
                {t('records.bornOn', { date: date(chart.demographics.dateOfBirth) })}
              </Text>
            ) : null}
          </Group>
        </Stack>
        <Group gap="sm">
          {actions}
          {clinical ? (
            <Switch
              label={t('records.showRemoved')}
              checked={showRemoved}
              onChange={(event) => onShowRemovedChange(event.currentTarget.checked)}
              data-testid="chart-show-removed"
            />
          ) : null}
        </Group>
      </Group>

      {chart.access === 'emergency' && chart.emergencyExpiresAt ? (
        <Alert
          color="orange"
          variant="light"
          icon={<IconAlertTriangle />}
          data-testid="chart-emergency-banner"
        >
          {t('records.emergency.banner', { time: when(chart.emergencyExpiresAt) })}
        </Alert>
      ) : null}
      {chart.access === 'administrative' ? (
        <Alert color="gray" variant="light" data-testid="chart-administrative-banner">
          {t('records.administrativeOnly')}
        </Alert>
      ) : null}

      <div className={classes.grid}>
        <Section
          title={t('records.sections.details')}
          testId="chart-details"
          action={
            canEditProfile ? (
              <Button
                size="xs"
                variant="light"
                leftSection={<IconEdit size={16} />}
                onClick={() => setIsEditingProfile(true)}
                data-testid="chart-edit-profile"
              >
                {chart.access === 'self' ? t('records.profile.editContact') : t('records.profile.edit')}
              </Button>
            ) : null
          }
        >
          <Fields
            rows={[
              [t('records.fields.sex'), t(`records.sex.${chart.demographics.sex}`)],
              [t('records.fields.phone'), chart.demographics.phone],
              [t('records.fields.email'), chart.demographics.email],
              [
                t('records.fields.language'),
                chart.demographics.language === 'en' || chart.demographics.language === 'es'
                  ? t(`languages.${chart.demographics.language}.name`)
                  : chart.demographics.language,
              ],
              [t('records.fields.address'), chart.demographics.address],
              [
                t('records.fields.identityDocument'),
                chart.identityDocument.number
                  ? `${chart.identityDocument.type ? t(`records.documentType.${chart.identityDocument.type}` as 'records.documentType.other') : ''} ${chart.identityDocument.number}`.trim()
                  : null,
              ],
              ...(clinical
                ? [[t('records.fields.bloodType'), clinical.bloodType] as [string, ReactNode]]
                : []),
            ]}
          />
        </Section>
        <Section title={t('records.sections.emergencyContact')} testId="chart-emergency-contact">
          <Fields
            rows={[
              [t('records.fields.contactName'), chart.emergencyContact.name],
              [t('records.fields.contactPhone'), chart.emergencyContact.phone],
              [t('records.fields.contactRelation'), chart.emergencyContact.relation],
            ]}
          />
        </Section>
      </div>

      {clinical ? (
        <div className={classes.grid}>
          <Section
            title={t('records.sections.allergies')}
            action={addButton('allergy')}
            testId="chart-allergies"
          >
            {clinical.allergies.length === 0
              ? empty('allergies')
              : clinical.allergies.map((item) =>
                  entry(
                    'allergies',
                    item,
                    item.substance,
                    [t(`records.severity.${item.severity}`), item.reaction].filter(Boolean).join(' · '),
                  ),
                )}
          </Section>
          <Section
            title={t('records.sections.conditions')}
            action={addButton('condition')}
            testId="chart-conditions"
          >
            {clinical.conditions.length === 0
              ? empty('conditions')
              : clinical.conditions.map((item) =>
                  entry(
                    'conditions',
                    item,
                    item.diagnosisCode ? `${item.diagnosisCode} · ${item.description}` : item.description,
                    [
                      item.diagnosisName,
                      t(`records.conditionStatus.${item.status}`),
                      item.onsetDate ? t('records.since', { date: date(item.onsetDate) }) : null,
                    ]
                      .filter(Boolean)
                      .join(' · '),
                  ),
                )}
          </Section>
          <Section
            title={t('records.sections.medications')}
            action={addButton('medication')}
            testId="chart-medications"
          >
            {clinical.medications.length === 0
              ? empty('medications')
              : clinical.medications.map((item) =>
                  entry(
                    'medications',
                    item,
                    item.name,
                    [
                      item.dose,
                      item.frequency,
                      item.startedOn ? t('records.since', { date: date(item.startedOn) }) : null,
                      item.stoppedOn ? t('records.until', { date: date(item.stoppedOn) }) : null,
                    ]
                      .filter(Boolean)
                      .join(' · '),
                  ),
                )}
          </Section>
        </div>
      ) : null}

      <div className={classes.grid}>
        {clinical ? (
          <Section
            title={t('records.sections.prescriptions')}
            testId="chart-prescriptions"
            action={
              isDoctor && canPrescribe ? (
                <Button
                  component={Link}
                  to={`/admin/patients/${chart.patientId}/prescriptions/new`}
                  size="xs"
                  variant="light"
                  leftSection={<IconPlus size={16} />}
                  data-testid="chart-new-prescription"
                >
                  {t('records.newPrescription')}
                </Button>
              ) : null
            }
          >
            {clinical.prescriptions.length === 0
              ? empty('prescriptions')
              : clinical.prescriptions.map((prescription) => (
                  <div key={prescription.id} className={classes.entry}>
                    <div className={classes.entryText}>
                      <Anchor
                        component={Link}
                        to={`/admin/prescriptions/${prescription.id}`}
                        size="sm"
                        fw={600}
                      >
                        {when(prescription.issuedAt)}
                      </Anchor>
                      <Text size="sm" c="gray.7">
                        {prescription.doctor.name} ·{' '}
                        {t('records.itemCount', { count: prescription.itemCount })}
                      </Text>
                    </div>
                    <Badge
                      variant="light"
                      tt="none"
                      color={prescription.status === 'active' ? 'teal' : 'gray'}
                    >
                      {t(`records.prescriptionStatus.${prescription.status}`)}
                    </Badge>
                  </div>
                ))}
          </Section>
        ) : null}
        {clinical ? (
          <DocumentsSection
            patientId={chart.patientId}
            documents={clinical.documents}
            canUpload={canUploadDocuments && (chart.access === 'self' || isDoctor)}
          />
        ) : null}
      </div>

      {clinical ? notes : null}
      <Section
        title={t('records.sections.visits')}
        testId="chart-visits"
        action={
          chart.visits.length > visitPreviewCount ? (
            <Button size="xs" variant="subtle" onClick={() => setShowAllVisits((value) => !value)}>
              {showAllVisits
                ? t('records.visitsShowFewer')
                : t('records.visitsShowAll', { count: chart.visits.length })}
            </Button>
          ) : null
        }
      >
        {chart.visits.length === 0
          ? empty('visits')
          : shownVisits.map((visit) => (
              <div key={visit.id} className={classes.entry}>
                <div className={classes.entryText}>
                  <Anchor component={Link} to={`/admin/appointments/${visit.id}`} size="sm" fw={600}>
                    {when(visit.startsAt)}
                  </Anchor>
                  <Text size="sm" c="gray.7">
                    {visit.doctor.name}
                    {visit.reason ? ` · ${visit.reason}` : ''}
                  </Text>
                </div>
                <Badge
                  variant="light"
                  tt="none"
                  color={appointmentStatusColors[visit.status as AppointmentStatus] ?? 'gray'}
                >
                  {t(`adminDashboard.status.${visit.status}` as 'adminDashboard.status.completed')}
                </Badge>
              </div>
            ))}
      </Section>
      <AddEntryModal patientId={chart.patientId} kind={adding} onClose={() => setAdding(null)} />
      <ProfileModal
        chart={chart}
        opened={isEditingProfile}
        isContactOnly={chart.access === 'self'}
        onClose={() => setIsEditingProfile(false)}
      />
      <ConfirmDialog
        opened={removing !== null}
        title={t('records.remove.title')}
        confirmLabel={t('records.remove.confirm')}
        isDestructive
        isPending={remove.isPending}
        error={remove.error ? errorText(remove.error) : undefined}
        onConfirm={() => {
          if (removing) {
            remove.mutate(
              { kind: removing.kind, entryId: removing.id },
              { onSuccess: () => setRemoving(null) },
            );
          }
        }}
        onCancel={() => {
          remove.reset();
          setRemoving(null);
        }}
        testId="chart-remove-confirm"
      >
        {t('records.remove.text', { name: removing?.label ?? '' })}
      </ConfirmDialog>
    </Stack>
  );
}
