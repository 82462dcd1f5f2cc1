import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/Paper.layer.css';
import { Alert, Button, Center, Loader, Paper, Stack, Text } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import type { NoteEnvelope, VisitNote } from '@telemedicina/shared/notes';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client';
import { useApiErrorText } from '../../../lib/error-text';
import { useHasAnyPermission } from '../../../lib/ui-state';
import { createNote, useNote } from '../api/note';
import { DraftNoteEditor } from './DraftNoteEditor';
import classes from './Notes.module.css';
import { SignedNoteView } from './SignedNoteView';
import { VitalsView } from './VitalsView';
import { queryKeys } from '../../../lib/query-keys';

export interface NoteWorkspaceProps {
  appointmentId: string;
  /** Narrow layout (beside the call). */
  isCompact?: boolean;
}

/**
 * The note of one visit for whoever opens it: the doctor's draft editor (started on first
 * opening), the signed note with its addenda, or — for the patient before signing — a word that
 * the summary comes once the doctor signs. The doctor sees the vitals the patient reported.
 */
export function NoteWorkspace({ appointmentId, isCompact = false }: NoteWorkspaceProps) {
  const { t } = useTranslation();
  const errorText = useApiErrorText();
  const queryClient = useQueryClient();
  const canWrite = useHasAnyPermission(['records.write']);
  const envelope = useNote(appointmentId);
  const [createError, setCreateError] = useState<unknown>(null);
  const creatingRef = useRef(false);

  const handleNote = useCallback(
    (note: VisitNote | null) => {
      if (note === null) {
        void queryClient.invalidateQueries({ queryKey: queryKeys.appointments.note(appointmentId) });
        return;
      }
      queryClient.setQueryData<NoteEnvelope>(queryKeys.appointments.note(appointmentId), (previous) => ({
        vitals: previous?.vitals ?? null,
        note,
      }));
      void queryClient.invalidateQueries({ queryKey: queryKeys.patients.notes(note.patient.id) });
    },
    [queryClient, appointmentId],
  );

  const mustCreate = canWrite && envelope.data !== undefined && envelope.data.note === null;
  const startNote = useCallback(() => {
    if (creatingRef.current) {
      return;
    }
    creatingRef.current = true;
    setCreateError(null);
    createNote(appointmentId).then(
      (note) => {
        creatingRef.current = false;
        handleNote(note);
      },
      (error: unknown) => {
        creatingRef.current = false;
        setCreateError(error);
      },
    );
  }, [appointmentId, handleNote]);

  useEffect(() => {
    // Opening the note is what starts the draft.
    if (mustCreate && createError === null) {
      startNote();
    }
  }, [mustCreate, createError, startNote]);

  if (envelope.isPending) {
    return (
      <Center py="xl">
        <Loader />
      </Center>
    );
  }
  if (envelope.isError) {
    const isNotFound = envelope.error instanceof ApiError && envelope.error.status === 404;
    return (
      <Alert
        color={isNotFound ? 'gray' : 'red'}
        variant="light"
        icon={isNotFound ? <IconLock /> : undefined}
        data-testid="note-error"
      >
        {isNotFound ? t('notes.notFound') : errorText(envelope.error)}
      </Alert>
    );
  }
  const { note, vitals } = envelope.data;
  const vitalsBlock =
    canWrite && note?.status !== 'signed' ? (
      <Paper withBorder radius="md" p="sm" data-testid="note-vitals-card">
        <h3 className={classes.sectionTitle}>{t('notes.vitals.reportedTitle')}</h3>
        <VitalsView vitals={vitals} />
      </Paper>
    ) : null;

  if (note === null) {
    if (!canWrite) {
      return (
        <Alert color="gray" variant="light" data-testid="note-not-signed-yet">
          {t('notes.notSignedYet')}
        </Alert>
      );
    }
    return (
      <Stack gap="md">
        {createError ? (
          <Alert color="red" variant="light" data-testid="note-create-error">
            <Stack gap="xs" align="flex-start">
              <Text size="sm">
                {createError instanceof ApiError && (createError.status === 403 || createError.status === 404)
                  ? t('notes.notStarted')
                  : errorText(createError)}
              </Text>
              <Button size="xs" variant="light" onClick={startNote}>
                {t('notes.retry')}
              </Button>
            </Stack>
          </Alert>
        ) : (
          <Center py="xl">
            <Stack align="center" gap="xs">
              <Loader />
              <Text size="sm">{t('notes.starting')}</Text>
            </Stack>
          </Center>
        )}
      </Stack>
    );
  }

  return (
    <Stack gap="md" data-testid="note-workspace">
      {vitalsBlock}
      {note.status === 'draft' && note.canEdit ? (
        <DraftNoteEditor
          key={note.id}
          appointmentId={appointmentId}
          note={note}
          onNote={handleNote}
          isCompact={isCompact}
        />
      ) : (
        <SignedNoteView note={note} onAmended={handleNote} isCompact={isCompact} />
      )}
    </Stack>
  );
}
