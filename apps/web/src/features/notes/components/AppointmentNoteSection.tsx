import '@mantine/core/styles/Paper.layer.css';
import '@mantine/core/styles/Alert.layer.css';
import { Alert, Badge, Button, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { IconFileText, IconNotes } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useApiErrorText } from '../../../lib/error-text';
import { useMe } from '../../../lib/session';
import { useHasAnyPermission } from '../../../lib/ui-state';
import { useNote } from '../api/note';
import { summaryPdfUrl } from '../api/summary';
import { VitalsForm } from './VitalsForm';
import { VitalsView } from './VitalsView';

export interface NoteAppointment {
  id: string;
  status: string;
  doctorId: string;
  patientId: string;
}

const notePath = (appointmentId: string) => `/admin/appointments/${encodeURIComponent(appointmentId)}/note`;

/**
 * The note's part of the appointment page: the doctor opens the note; the patient reports their
 * vitals (until the note is signed) and, once it is, reads the visit summary.
 */
export function AppointmentNoteSection({ appointment }: { appointment: NoteAppointment }) {
  const { t } = useTranslation();
  const viewerId = useMe().data?.user.id;
  const canWrite = useHasAnyPermission(['records.write']);
  if (appointment.status === 'cancelled') {
    return null;
  }
  if (viewerId === appointment.doctorId && canWrite) {
    return (
      <Paper withBorder radius="md" p="md" data-testid="appointment-note">
        <Group justify="space-between" gap="sm">
          <Stack gap={2} style={{ minWidth: 0, flex: '1 1 240px' }}>
            <Title order={2} size="h4">
              {t('notes.title')}
            </Title>
            <Text size="sm" c="gray.7">
              {t('notes.appointmentHint')}
            </Text>
          </Stack>
          <Button
            component={Link}
            to={notePath(appointment.id)}
            leftSection={<IconNotes size={18} />}
            data-testid="appointment-open-note"
          >
            {t('notes.open')}
          </Button>
        </Group>
      </Paper>
    );
  }
  if (viewerId === appointment.patientId) {
    return <PatientNoteSection appointmentId={appointment.id} />;
  }
  return null;
}

function PatientNoteSection({ appointmentId }: { appointmentId: string }) {
  const { t } = useTranslation();
  const errorText = useApiErrorText();
  const envelope = useNote(appointmentId);
  if (envelope.isPending) {
    return <Loader size="sm" />;
  }
  if (envelope.isError) {
    return (
      <Alert color="red" variant="light">
        {errorText(envelope.error)}
      </Alert>
    );
  }
  const { note, vitals } = envelope.data;
  const isSigned = note?.status === 'signed';
  return (
    <Stack gap="md">
      {isSigned && note ? (
        <Paper withBorder radius="md" p="md" data-testid="appointment-summary">
          <Group justify="space-between" gap="sm">
            <Stack gap={2} style={{ minWidth: 0, flex: '1 1 240px' }}>
              <Group gap="xs">
                <Title order={2} size="h4">
                  {t('notes.summaryTitle')}
                </Title>
                <Badge color="teal" variant="light" tt="none">
                  {t('notes.status.signed')}
                </Badge>
              </Group>
              <Text size="sm" c="gray.7">
                {t('notes.summaryHint')}
              </Text>
            </Stack>
            <Group gap="xs">
              <Button
                component={Link}
                to={notePath(appointmentId)}
                variant="default"
                leftSection={<IconNotes size={18} />}
                data-testid="appointment-read-note"
              >
                {t('notes.read')}
              </Button>
              {note.summaryDocumentId ? (
                <Button
                  component="a"
                  href={summaryPdfUrl(note.patient.id, note.summaryDocumentId)}
                  target="_blank"
                  rel="noopener"
                  leftSection={<IconFileText size={18} />}
                  data-testid="appointment-summary-pdf"
                >
                  {t('notes.summaryPdf')}
                </Button>
              ) : null}
            </Group>
          </Group>
        </Paper>
      ) : null}
      <Paper withBorder radius="md" p="md" data-testid="appointment-vitals">
        <Title order={2} size="h4" mb="xs">
          {t('notes.vitals.title')}
        </Title>
        {isSigned ? (
          <VitalsView vitals={vitals} isOwn />
        ) : (
          <VitalsForm appointmentId={appointmentId} initial={vitals} />
        )}
      </Paper>
    </Stack>
  );
}
