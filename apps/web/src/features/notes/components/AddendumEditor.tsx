import '@mantine/core/styles/Alert.layer.css';
import { Alert, Button, Center, Group, Loader, Stack, Text } from '@mantine/core';
import type { VisitNote } from '@telemedicina/shared/notes';
import { Suspense, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LazyRichTextEditor } from '../../../components/rich-text-editor';
import { useApiErrorText } from '../../../lib/error-text';
import { addAddendum } from '../api/note';
import { isBlankHtml } from '../soap-template';

const draftKey = (appointmentId: string) => `telemedicina.notes.addendum.${appointmentId}`;

function readDraft(appointmentId: string): string {
  try {
    return sessionStorage.getItem(draftKey(appointmentId)) ?? '';
  } catch {
    return '';
  }
}

function writeDraft(appointmentId: string, html: string | null) {
  try {
    if (html === null) {
      sessionStorage.removeItem(draftKey(appointmentId));
    } else {
      sessionStorage.setItem(draftKey(appointmentId), html);
    }
  } catch {
    // Private mode: the draft lives only on screen.
  }
}

export interface AddendumEditorProps {
  appointmentId: string;
  onSaved: (note: VisitNote) => void;
  onCancel: () => void;
}

/**
 * Writes an addendum to a signed note. Its draft is autosaved in this tab (it is signed only when
 * the doctor saves it); saving first closes the editor so the last keystrokes are handed over,
 * then sends it. A refusal keeps the text and reopens the editor with it.
 */
export function AddendumEditor({ appointmentId, onSaved, onCancel }: AddendumEditorProps) {
  const { t } = useTranslation();
  const errorText = useApiErrorText();
  const [initial, setInitial] = useState(() => readDraft(appointmentId));
  const latestRef = useRef(initial);
  const [phase, setPhase] = useState<'editing' | 'sending'>('editing');
  const [error, setError] = useState<string | null>(null);
  const sendingRef = useRef(false);

  const handleSave = (html: string) => {
    latestRef.current = html;
    writeDraft(appointmentId, html);
  };

  useEffect(() => {
    if (phase !== 'sending' || sendingRef.current) {
      return;
    }
    // The editor unmounted and handed over its last text: send it.
    const html = latestRef.current;
    if (isBlankHtml(html)) {
      setError(t('notes.addenda.empty'));
      setPhase('editing');
      return;
    }
    sendingRef.current = true;
    addAddendum(appointmentId, html).then(
      (note) => {
        sendingRef.current = false;
        writeDraft(appointmentId, null);
        onSaved(note);
      },
      (failure: unknown) => {
        sendingRef.current = false;
        setInitial(html);
        setError(errorText(failure));
        setPhase('editing');
      },
    );
  }, [phase, appointmentId, errorText, onSaved, t]);

  return (
    <Stack gap="xs" data-testid="addendum-editor">
      <Text fw={650} size="sm" id="addendum-editor-label">
        {t('notes.addenda.new')}
      </Text>
      {phase === 'editing' ? (
        <Suspense
          fallback={
            <Center mih={120}>
              <Loader size="sm" />
            </Center>
          }
        >
          <LazyRichTextEditor
            initialContent={initial}
            onSave={handleSave}
            labelledBy="addendum-editor-label"
            placeholder={t('notes.addenda.placeholder')}
          />
        </Suspense>
      ) : (
        <Center mih={120}>
          <Loader size="sm" aria-label={t('notes.addenda.sending')} />
        </Center>
      )}
      {error ? (
        <Alert color="red" variant="light" data-testid="addendum-error">
          {error}
        </Alert>
      ) : null}
      <Text size="xs" c="gray.7">
        {t('notes.addenda.signedWhenSaved')}
      </Text>
      <Group justify="flex-end" gap="xs">
        <Button
          variant="default"
          onClick={() => {
            writeDraft(appointmentId, null);
            onCancel();
          }}
          disabled={phase === 'sending'}
          data-testid="addendum-cancel"
        >
          {t('common.cancel')}
        </Button>
        <Button
          onClick={() => {
            setError(null);
            setPhase('sending');
          }}
          loading={phase === 'sending'}
          data-testid="addendum-save"
        >
          {t('notes.addenda.save')}
        </Button>
      </Group>
    </Stack>
  );
}
