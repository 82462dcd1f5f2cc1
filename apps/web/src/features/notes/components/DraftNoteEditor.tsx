import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/Paper.layer.css';
import { Alert, Button, Center, Loader, Paper, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconLayoutList, IconRefresh, IconSignature } from '@tabler/icons-react';
import {
  noteSections,
  type NoteDiagnosis,
  type NoteSection,
  type VisitNote,
} from '@telemedicina/shared/notes';
import { Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/modal/ConfirmDialog';
import { LazyRichTextEditor } from '../../../components/rich-text-editor';
import { ApiError } from '../../../lib/api-client';
import { useApiErrorText } from '../../../lib/error-text';
import { useNoteInsertTarget } from '../../../lib/note-insert';
import { getNote, setNoteDiagnoses, signNote } from '../api/note';
import type { SectionChanges } from '../hooks/note-save-queue';
import { useNoteSaveQueue } from '../hooks/use-note-save-queue';
import { isBlankHtml, soapTemplateHtml } from '../soap-template';
import { signReadiness } from '../sign-readiness';
import { DiagnosisPicker } from './DiagnosisPicker';
import { SaveStatus, SignChecklist, UnsavedCopies } from './DraftNoteStatus';
import classes from './Notes.module.css';

type Sections = Record<NoteSection, string>;
type Keys = Record<NoteSection, number>;

export interface DraftNoteEditorProps {
  appointmentId: string;
  note: VisitNote;
  /** Every note the server answers (the page keeps it as the current one). */
  onNote: (note: VisitNote) => void;
  /** Narrow layout beside the call. */
  isCompact?: boolean;
}

const zeroKeys: Keys = { subjective: 0, objective: 0, assessment: 0, plan: 0 };

/** The live text of an editor in the page (what was typed, including the last seconds not yet saved). */
function liveText(container: HTMLElement | null): string {
  return container?.querySelector('[contenteditable]')?.textContent?.trim() ?? '';
}

/**
 * The doctor's draft: four SOAP editors saving through one queue (merged, serialised PATCHes on
 * the latest version), the SOAP template, the diagnoses, and signing. A version conflict stops
 * saving and offers to reload, keeping whatever was not saved copyable; signing first closes the
 * editors so their last keystrokes are handed to the queue, waits for them to be stored, then
 * signs that version.
 */
export function DraftNoteEditor({ appointmentId, note, onNote, isCompact = false }: DraftNoteEditorProps) {
  const { t } = useTranslation();
  const errorText = useApiErrorText();
  const { queue, state, enqueue } = useNoteSaveQueue(appointmentId, note, onNote);
  const [initial, setInitial] = useState<Sections>(() => ({ ...note.sections }));
  const [keys, setKeys] = useState<Keys>(zeroKeys);
  const keysRef = useRef<Keys>(zeroKeys);
  /** Editors older than this were replaced by a reload: what they hand over is kept aside, not saved. */
  const reloadFloorRef = useRef<Keys>(zeroKeys);
  const latestRef = useRef<Sections>({ ...note.sections });
  const containersRef = useRef<Partial<Record<NoteSection, HTMLDivElement | null>>>({});
  const [kept, setKept] = useState<SectionChanges>({});
  const [templateAsk, setTemplateAsk] = useState<{ empty: NoteSection[]; filled: NoteSection[] } | null>(
    null,
  );
  const [templateNotice, setTemplateNotice] = useState(false);
  const [diagnoses, setDiagnoses] = useState<NoteDiagnosis[]>(note.diagnoses);
  const [diagnosesError, setDiagnosesError] = useState<string | null>(null);
  const [signPhase, setSignPhase] = useState<'closed' | 'asking' | 'signing'>('closed');
  const [signError, setSignError] = useState<string | null>(null);
  const signingRef = useRef(false);
  /** Text sent from beside the note (the intake answers): into the section last used, else Subjective. */
  const [insertion, setInsertion] = useState<{ section: NoteSection; id: number; html: string } | null>(null);
  const lastSectionRef = useRef<NoteSection>('subjective');
  /** Which sections hold text (live, from the editors' input): what the sign checklist reads. */
  const [filled, setFilled] = useState<Record<NoteSection, boolean>>(() => filledOf(note.sections));
  const markFilled = useCallback((section: NoteSection, isFilled: boolean) => {
    setFilled((previous) =>
      previous[section] === isFilled ? previous : { ...previous, [section]: isFilled },
    );
  }, []);

  useNoteInsertTarget(
    appointmentId,
    useCallback(
      (html: string) => {
        const section = lastSectionRef.current;
        setInsertion((previous) => ({ section, id: (previous?.id ?? 0) + 1, html }));
        markFilled(section, true);
      },
      [markFilled],
    ),
  );
  const remount = useCallback((sections: NoteSection[], contents: Partial<Sections>) => {
    const nextKeys = { ...keysRef.current };
    for (const section of sections) {
      nextKeys[section] += 1;
    }
    keysRef.current = nextKeys;
    setKeys(nextKeys);
    setInitial((previous) => ({ ...previous, ...contents }));
  }, []);

  const handleSectionSave = useCallback(
    (section: NoteSection, key: number, html: string) => {
      if (key < reloadFloorRef.current[section]) {
        // Typed into an editor replaced by a reload: keep it for copying, never save over the other version.
        if (!isBlankHtml(html)) {
          setKept((previous) => ({ ...previous, [section]: html }));
        }
        return;
      }
      if (key !== keysRef.current[section] && isBlankHtml(html)) {
        // An empty editor replaced by the template says it is empty on its way out.
        return;
      }
      latestRef.current = { ...latestRef.current, [section]: html };
      markFilled(section, !isBlankHtml(html));
      enqueue(section, html);
    },
    [enqueue, markFilled],
  );

  // ---------------------------------------------------------------- template

  const applyTemplate = (sections: NoteSection[]) => {
    const contents: Partial<Sections> = {};
    for (const section of sections) {
      const html = soapTemplateHtml(section, (prompt) => t(`notes.template.prompts.${prompt}`));
      contents[section] = html;
      latestRef.current = { ...latestRef.current, [section]: html };
    }
    remount(sections, contents);
    for (const section of sections) {
      markFilled(section, !isBlankHtml(contents[section] ?? ''));
      enqueue(section, contents[section] ?? '');
    }
  };

  const handleTemplate = () => {
    setTemplateNotice(false);
    const empty = noteSections.filter((section) => liveText(containersRef.current[section] ?? null) === '');
    const filled = noteSections.filter((section) => !empty.includes(section));
    if (empty.length === 0) {
      setTemplateNotice(true);
      return;
    }
    if (filled.length > 0) {
      setTemplateAsk({ empty, filled });
      return;
    }
    applyTemplate(empty);
  };

  // ---------------------------------------------------------------- conflict

  const handleReload = async () => {
    const unsaved = { ...state.unsaved };
    for (const section of noteSections) {
      // What was typed in the last seconds, not yet handed to the queue.
      const container = containersRef.current[section];
      const live = container?.querySelector('[contenteditable]')?.innerHTML;
      if (live !== undefined && liveText(container ?? null) !== '' && live !== latestRef.current[section]) {
        unsaved[section] = unsaved[section] ?? live;
      }
    }
    setKept((previous) => ({ ...previous, ...unsaved }));
    let current = state.conflictNote;
    if (!current) {
      try {
        current = (await getNote(appointmentId)).note;
      } catch (error) {
        setDiagnosesError(errorText(error));
        return;
      }
    }
    if (!current) {
      return;
    }
    reloadFloorRef.current = {
      subjective: keysRef.current.subjective + 1,
      objective: keysRef.current.objective + 1,
      assessment: keysRef.current.assessment + 1,
      plan: keysRef.current.plan + 1,
    };
    latestRef.current = { ...current.sections };
    queue.reset(current);
    remount([...noteSections], current.sections);
    setFilled(filledOf(current.sections));
    setDiagnoses(current.diagnoses);
    onNote(current);
  };

  // ---------------------------------------------------------------- diagnoses

  const handleDiagnoses = (items: NoteDiagnosis[]) => {
    const previous = diagnoses;
    setDiagnoses(items);
    setDiagnosesError(null);
    queue
      .run((baseVersion) =>
        setNoteDiagnoses(appointmentId, {
          baseVersion,
          items: items.map((item) => ({ code: item.code, primary: item.primary })),
        }),
      )
      .then(
        (saved) => setDiagnoses(saved.diagnoses),
        (error: unknown) => {
          setDiagnoses(previous);
          if (!(error instanceof ApiError && error.code === 'NOTE_VERSION_CONFLICT')) {
            setDiagnosesError(errorText(error));
          }
        },
      );
  };

  // ---------------------------------------------------------------- signing

  useEffect(() => {
    if (signPhase !== 'signing' || signingRef.current) {
      return;
    }
    // The editors are closed: their last text is in the queue. Store it, then sign that version.
    signingRef.current = true;
    queue
      .settle()
      .then(() => queue.run((baseVersion) => signNote(appointmentId, baseVersion)))
      .then(
        () => {
          signingRef.current = false;
          setSignPhase('closed');
        },
        (error: unknown) => {
          signingRef.current = false;
          setSignError(errorText(error));
          setInitial({ ...latestRef.current });
          setSignPhase('asking');
        },
      );
  }, [signPhase, queue, appointmentId, errorText]);

  const isSigning = signPhase === 'signing';
  const isConflict = state.status === 'conflict';
  const isBlocked = isConflict || state.status === 'signed';
  const readiness = signReadiness(filled, diagnoses.length);

  return (
    <Stack gap="md" data-testid="note-editor" data-save-status={state.status}>
      <div className={classes.toolbar}>
        <SaveStatus state={state} />
        <div className={classes.toolbarActions}>
          <Button
            variant="default"
            size={isCompact ? 'xs' : 'sm'}
            leftSection={<IconLayoutList size={16} />}
            onClick={handleTemplate}
            disabled={isSigning || isBlocked}
            data-testid="note-template"
          >
            {t('notes.template.apply')}
          </Button>
          <Button
            size={isCompact ? 'xs' : 'sm'}
            leftSection={<IconSignature size={16} />}
            onClick={() => {
              setSignError(null);
              setSignPhase('asking');
            }}
            disabled={isSigning || isBlocked}
            data-testid="note-sign"
          >
            {t('notes.sign.open')}
          </Button>
        </div>
      </div>

      {isBlocked || isSigning ? null : (
        <SignChecklist
          isReady={readiness.isReady}
          emptySections={readiness.emptySections.map((section) => t(`notes.sections.${section}`))}
        />
      )}

      {templateNotice ? (
        <Alert
          color="gray"
          variant="light"
          withCloseButton
          closeButtonLabel={t('common.close')}
          onClose={() => setTemplateNotice(false)}
          data-testid="note-template-nothing"
        >
          {t('notes.template.nothingEmpty')}
        </Alert>
      ) : null}

      {isConflict ? (
        <Alert
          color="orange"
          variant="light"
          icon={<IconAlertTriangle />}
          title={t('notes.conflict.title')}
          data-testid="note-conflict"
        >
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{t('errors.codes.NOTE_VERSION_CONFLICT')}</Text>
            <Text size="sm">{t('notes.conflict.keep')}</Text>
            <Button
              size="xs"
              leftSection={<IconRefresh size={16} />}
              onClick={() => void handleReload()}
              data-testid="note-conflict-reload"
            >
              {t('notes.conflict.reload')}
            </Button>
          </Stack>
        </Alert>
      ) : null}

      {state.status === 'signed' ? (
        <Alert
          color="orange"
          variant="light"
          icon={<IconAlertTriangle />}
          data-testid="note-signed-elsewhere"
        >
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{t('errors.codes.NOTE_SIGNED')}</Text>
            {Object.keys(state.unsaved).length > 0 ? (
              <Text size="sm">{t('notes.signedElsewhere.copy')}</Text>
            ) : null}
            <Button
              size="xs"
              leftSection={<IconRefresh size={16} />}
              onClick={() => {
                getNote(appointmentId).then(
                  (envelope) => {
                    if (envelope.note) {
                      onNote(envelope.note);
                    }
                  },
                  (error: unknown) => setDiagnosesError(errorText(error)),
                );
              }}
              data-testid="note-signed-elsewhere-view"
            >
              {t('notes.signedElsewhere.view')}
            </Button>
          </Stack>
        </Alert>
      ) : null}

      {state.status === 'signed' && Object.keys(state.unsaved).length > 0 ? (
        <UnsavedCopies kept={state.unsaved} />
      ) : null}

      {Object.keys(kept).length > 0 ? <UnsavedCopies kept={kept} onDismiss={() => setKept({})} /> : null}

      {isSigning ? (
        <Center mih={200} data-testid="note-signing">
          <Stack align="center" gap="xs">
            <Loader />
            <Text size="sm">{t('notes.sign.signing')}</Text>
          </Stack>
        </Center>
      ) : (
        <div className={classes.sections}>
          {noteSections.map((section) => (
            <div
              key={section}
              ref={(element) => {
                containersRef.current[section] = element;
              }}
              data-testid={`note-section-${section}`}
              onFocus={() => {
                lastSectionRef.current = section;
              }}
              onInput={() => markFilled(section, liveText(containersRef.current[section] ?? null) !== '')}
            >
              <h3 className={classes.sectionTitle} id={`note-section-${section}-label`}>
                {t(`notes.sections.${section}`)}
              </h3>
              <Suspense
                fallback={
                  <Center mih={120}>
                    <Loader size="sm" aria-label={t('editor.loading')} />
                  </Center>
                }
              >
                <LazyRichTextEditor
                  key={keys[section]}
                  initialContent={initial[section]}
                  labelledBy={`note-section-${section}-label`}
                  placeholder={t(`notes.placeholders.${section}`)}
                  onSave={(html) => handleSectionSave(section, keys[section], html)}
                  showSaveStatus={false}
                  insertion={
                    insertion?.section === section ? { id: insertion.id, html: insertion.html } : null
                  }
                />
              </Suspense>
            </div>
          ))}
        </div>
      )}

      <Paper withBorder radius="md" p="sm">
        <h3 className={classes.sectionTitle}>{t('notes.diagnoses.title')}</h3>
        <DiagnosisPicker value={diagnoses} onChange={handleDiagnoses} isDisabled={isSigning || isBlocked} />
        {diagnosesError ? (
          <Alert color="red" variant="light" mt="xs" data-testid="note-diagnoses-error">
            {diagnosesError}
          </Alert>
        ) : null}
      </Paper>

      <ConfirmDialog
        opened={templateAsk !== null}
        title={t('notes.template.confirmTitle')}
        confirmLabel={t('notes.template.confirm')}
        onConfirm={() => {
          if (templateAsk) {
            // Checked again: something may have been typed since.
            const empty = templateAsk.empty.filter(
              (section) => liveText(containersRef.current[section] ?? null) === '',
            );
            applyTemplate(empty);
          }
          setTemplateAsk(null);
        }}
        onCancel={() => setTemplateAsk(null)}
        testId="note-template-confirm"
      >
        {t('notes.template.confirmText', {
          filled: (templateAsk?.filled ?? []).map((section) => t(`notes.sections.${section}`)).join(', '),
          empty: (templateAsk?.empty ?? []).map((section) => t(`notes.sections.${section}`)).join(', '),
        })}
      </ConfirmDialog>

      <ConfirmDialog
        opened={signPhase !== 'closed'}
        title={t('notes.sign.title')}
        confirmLabel={t('notes.sign.confirm')}
        isPending={isSigning}
        error={signError ?? undefined}
        onConfirm={() => {
          setSignError(null);
          setSignPhase('signing');
        }}
        onCancel={() => setSignPhase('closed')}
        testId="note-sign-confirm"
      >
        {t('notes.sign.text')}
      </ConfirmDialog>
    </Stack>
  );
}

function filledOf(sections: Readonly<Record<NoteSection, string>>): Record<NoteSection, boolean> {
  return {
    subjective: !isBlankHtml(sections.subjective),
    objective: !isBlankHtml(sections.objective),
    assessment: !isBlankHtml(sections.assessment),
    plan: !isBlankHtml(sections.plan),
  };
}
