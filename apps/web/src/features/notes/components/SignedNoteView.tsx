import '@mantine/core/styles/Paper.layer.css';
import '@mantine/core/styles/Badge.layer.css';
import { Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconDownload, IconLock, IconPlus } from '@tabler/icons-react';
import type { VisitNote } from '@telemedicina/shared/notes';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format';
import { useLanguage } from '../../../lib/ui-state';
import { summaryPdfUrl } from '../api/summary';
import { AddendumEditor } from './AddendumEditor';
import { DiagnosisList } from './DiagnosisPicker';
import { NoteSectionsView, SafeHtml } from './NoteSectionsView';
import classes from './Notes.module.css';
import { useViewerTimeZone } from '../../../lib/use-clock';

export interface SignedNoteViewProps {
  note: VisitNote;
  /** The note after an addendum was added. */
  onAmended: (note: VisitNote) => void;
  isCompact?: boolean;
}

/**
 * A note nobody can change any more (or a draft the viewer may only read): sections, diagnoses,
 * who signed it and when (in the viewer's zone), the addenda under it, "Add addendum" for those
 * who may, and the visit summary PDF kept in the chart.
 */
export function SignedNoteView({ note, onAmended, isCompact = false }: SignedNoteViewProps) {
  const { t } = useTranslation();
  const language = useLanguage();
  const timeZone = useViewerTimeZone();
  const [isAdding, setIsAdding] = useState(false);
  const when = (iso: string) => formatDateTime(iso, language, timeZone);
  const isSigned = note.status === 'signed';

  return (
    <Stack gap="md" data-testid="note-signed-view" data-status={note.status}>
      <Group justify="space-between" gap="xs" align="flex-start">
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Group gap="xs">
            <Badge
              color={isSigned ? 'teal' : 'gray'}
              variant="light"
              tt="none"
              leftSection={isSigned ? <IconLock size={12} /> : null}
              data-testid="note-status"
            >
              {t(`notes.status.${note.status}`)}
            </Badge>
          </Group>
          {isSigned && note.signedAt ? (
            <Text size="sm" c="gray.7" data-testid="note-signed-by">
              {t('notes.signedBy', {
                name: note.doctor.name,
                when: when(note.signedAt),
              })}
              {note.doctor.licenseNumber
                ? ` · ${t('notes.license', { number: note.doctor.licenseNumber })}`
                : ''}
            </Text>
          ) : null}
        </Stack>
        {note.summaryDocumentId ? (
          <Button
            component="a"
            href={summaryPdfUrl(note.patient.id, note.summaryDocumentId)}
            target="_blank"
            rel="noopener"
            variant="light"
            size={isCompact ? 'xs' : 'sm'}
            leftSection={<IconDownload size={16} />}
            data-testid="note-summary-pdf"
          >
            {t('notes.summaryPdf')}
          </Button>
        ) : null}
      </Group>
      <NoteSectionsView sections={note.sections} />
      <div>
        <h3 className={classes.sectionTitle}>{t('notes.diagnoses.title')}</h3>
        <DiagnosisList items={note.diagnoses} />
      </div>
      {note.addenda.length > 0 || note.canAmend ? (
        <Stack gap="sm" data-testid="note-addenda">
          <Title order={3} size="h5">
            {t('notes.addenda.title')}
          </Title>
          {note.addenda.length === 0 ? (
            <Text size="sm" c="gray.7">
              {t('notes.addenda.none')}
            </Text>
          ) : (
            note.addenda.map((addendum) => (
              <Paper key={addendum.id} className={classes.addendum} data-testid="note-addendum">
                <Text size="xs" c="gray.7" mb={4}>
                  {t('notes.addenda.by', { name: addendum.author.name, when: when(addendum.signedAt) })}
                </Text>
                <SafeHtml html={addendum.body} />
              </Paper>
            ))
          )}
          {note.canAmend ? (
            isAdding ? (
              <AddendumEditor
                appointmentId={note.appointmentId}
                onCancel={() => setIsAdding(false)}
                onSaved={(amended) => {
                  setIsAdding(false);
                  onAmended(amended);
                }}
              />
            ) : (
              <Group>
                <Button
                  variant="light"
                  leftSection={<IconPlus size={16} />}
                  onClick={() => setIsAdding(true)}
                  data-testid="note-add-addendum"
                >
                  {t('notes.addenda.add')}
                </Button>
              </Group>
            )
          ) : null}
        </Stack>
      ) : null}
      {isSigned ? null : (
        <Text size="sm" c="gray.7" data-testid="note-read-only-draft">
          {t('notes.readOnlyDraft')}
        </Text>
      )}
    </Stack>
  );
}
