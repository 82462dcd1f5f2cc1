import { Alert, Button, CopyButton, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import {
  IconAlertTriangle,
  IconCheck,
  IconCircleCheck,
  IconCloudCheck,
  IconCloudUpload,
  IconCopy,
  IconListCheck,
} from '@tabler/icons-react';
import { noteSections } from '@telemedicina/shared/notes';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useClock } from '../../../lib/use-clock';
import type { SaveQueueState, SectionChanges } from '../hooks/note-save-queue';
import { htmlToPlainText } from '../soap-template';

// The draft editor's status pieces: the save status, the text a conflict left unsaved, and what is
// still missing to sign.

/** Where the draft's saving stands, with the time of the last save. */
export function SaveStatus({ state }: { state: SaveQueueState }) {
  const { t } = useTranslation();
  const clock = useClock();
  const time = state.savedAt
    ? clock.format(state.savedAt, { hour: 'numeric', minute: '2-digit', second: '2-digit' })
    : undefined;
  const view: { color: string; icon: ReactNode; text: string } = (() => {
    switch (state.status) {
      case 'saving':
        return { color: 'gray.7', icon: <Loader size={12} />, text: t('notes.save.saving') };
      case 'pending':
        return { color: 'gray.7', icon: <IconCloudUpload size={14} />, text: t('notes.save.pending') };
      case 'error':
        return { color: 'red.8', icon: <IconAlertTriangle size={14} />, text: t('notes.save.error') };
      case 'conflict':
        return { color: 'orange.9', icon: <IconAlertTriangle size={14} />, text: t('notes.save.conflict') };
      case 'signed':
        return {
          color: 'orange.9',
          icon: <IconAlertTriangle size={14} />,
          text: t('errors.codes.NOTE_SIGNED'),
        };
      case 'saved':
        return { color: 'teal.9', icon: <IconCloudCheck size={14} />, text: t('notes.save.saved', { time }) };
      case 'idle':
        return { color: 'gray.7', icon: <IconCloudCheck size={14} />, text: t('notes.save.idle') };
    }
  })();
  return (
    <Group gap={6} wrap="nowrap" data-testid="note-save-status" data-status={state.status} aria-live="polite">
      {view.icon}
      <Text size="sm" c={view.color}>
        {view.text}
      </Text>
    </Group>
  );
}

/** Text the server did not take (a conflict), copyable section by section until dismissed. */
export function UnsavedCopies({ kept, onDismiss }: { kept: SectionChanges; onDismiss?: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert color="yellow" variant="light" title={t('notes.conflict.unsavedTitle')} data-testid="note-unsaved">
      <Stack gap="xs">
        {noteSections
          .filter((section) => kept[section] !== undefined)
          .map((section) => {
            const text = htmlToPlainText(kept[section] ?? '');
            return (
              <Paper key={section} withBorder p="xs" radius="sm" data-testid={`note-unsaved-${section}`}>
                <Group justify="space-between" gap="xs" mb={4}>
                  <Text size="sm" fw={650}>
                    {t(`notes.sections.${section}`)}
                  </Text>
                  <CopyButton value={text}>
                    {({ copied, copy }) => (
                      <Button
                        size="xs"
                        variant="light"
                        leftSection={copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
                        onClick={copy}
                      >
                        {copied ? t('editor.copied') : t('editor.copy')}
                      </Button>
                    )}
                  </CopyButton>
                </Group>
                <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                  {text}
                </Text>
              </Paper>
            );
          })}
        {onDismiss ? (
          <Group justify="flex-end">
            <Button size="xs" variant="default" onClick={onDismiss} data-testid="note-unsaved-dismiss">
              {t('notes.conflict.dismiss')}
            </Button>
          </Group>
        ) : null}
      </Stack>
    </Alert>
  );
}

/**
 * What is missing to sign, in words, above the editors: the one requirement (an assessment, a plan
 * or a diagnosis) until it is met, then "ready to sign"; the sections still empty beside it.
 */
export function SignChecklist({ isReady, emptySections }: { isReady: boolean; emptySections: string[] }) {
  const { t } = useTranslation();
  return (
    <Alert
      color={isReady ? 'teal' : 'yellow'}
      variant="light"
      icon={isReady ? <IconCircleCheck /> : <IconListCheck />}
      title={isReady ? t('notes.readiness.ready') : t('notes.readiness.title')}
      data-testid="note-sign-readiness"
      data-ready={isReady}
    >
      <Stack gap={4}>
        {isReady ? null : (
          <Text size="sm" data-testid="note-sign-missing">
            {t('notes.readiness.assessmentPlanOrDiagnosis')}
          </Text>
        )}
        {emptySections.length > 0 ? (
          <Text size="sm" c="gray.7" data-testid="note-empty-sections">
            {t('notes.readiness.emptySections', { sections: emptySections.join(', ') })}
          </Text>
        ) : null}
      </Stack>
    </Alert>
  );
}
