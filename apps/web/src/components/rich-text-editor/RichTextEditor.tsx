import '@mantine/core/styles/ActionIcon.layer.css';
import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/Divider.layer.css';
import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/Popover.layer.css';
import '@mantine/core/styles/Tooltip.layer.css';
import '@mantine/core/styles/Typography.layer.css';
import { Alert, Button, Center, CopyButton, Group, Loader, Stack, Text, Typography } from '@mantine/core';
import { IconAlertOctagon, IconCheck, IconCopy } from '@tabler/icons-react';
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { sanitizeHtml } from '../../lib/sanitize-html';
import { autosaveIntervalMs, createAutosaver, type Autosaver } from './autosaver';
import { CrashGuard } from './CrashGuard';
import { editorCrashPolicy, shouldGiveUp } from './crash-policy';
import classes from './RichTextEditor.module.css';
import { TiptapEditor, type EditorInsertion } from './TiptapEditor';
import { useClock } from '../../lib/use-clock';

export interface RichTextEditorProps {
  /** Starting HTML (already stored; it is not saved again unless changed). */
  initialContent?: string;
  /** Stores the HTML. Called every 5 s when it changed, when the page is hidden or left, and on unmount. */
  onSave: (html: string) => void | Promise<void>;
  placeholder?: string;
  /** Id of the element labelling the editor. */
  labelledBy?: string;
  /** Extra toolbar content, rendered inside the crash guard. */
  toolbarExtra?: ReactNode;
  autosaveIntervalMs?: number;
  /**
   * The "saved at …" line under the editor (default shown). Off where the screen already says how
   * saving goes for several editors at once (a visit note's four sections).
   */
  showSaveStatus?: boolean;
  /** Text another part of the screen puts in (the visit's intake answers into the note). */
  insertion?: EditorInsertion | null;
}

interface Session {
  /** Bumped to restart the editor after a crash. */
  generation: number;
  content: string;
  crashTimes: number[];
  keptContent: string | null;
}

/**
 * Rich-text editor (Tiptap) with autosave and crash recovery (specification §9): content is saved
 * every 5000 ms when changed and when leaving the page; after a crash the editor restarts with the
 * last saved content; once 3 crashes have come less than 5000 ms apart on average it gives up,
 * saying so and keeping the content on screen, read-only and copyable.
 */
export default function RichTextEditor({
  initialContent = '',
  onSave,
  placeholder,
  labelledBy,
  toolbarExtra,
  autosaveIntervalMs: intervalMs = autosaveIntervalMs,
  showSaveStatus = true,
  insertion = null,
}: RichTextEditorProps) {
  const { t } = useTranslation();
  const clock = useClock();
  const latestContentRef = useRef(initialContent);
  const lastSavedRef = useRef(initialContent);
  const onSaveRef = useRef(onSave);
  const autosaverRef = useRef<Autosaver | null>(null);
  const [savedAt, setSavedAt] = useState<Date | null>(null);
  const [session, setSession] = useState<Session>({
    generation: 0,
    content: initialContent,
    crashTimes: [],
    keptContent: null,
  });

  useEffect(() => {
    onSaveRef.current = onSave;
  }, [onSave]);

  useEffect(() => {
    const autosaver = createAutosaver({
      read: () => latestContentRef.current,
      save: (content) => onSaveRef.current(content),
      initialContent: lastSavedRef.current,
      intervalMs,
      onHandedOver: (content) => {
        lastSavedRef.current = content;
        setSavedAt(new Date());
      },
    });
    autosaverRef.current = autosaver;
    autosaver.start();
    const handleVisibilityChange = () => {
      if (document.visibilityState === 'hidden') {
        autosaver.flush();
      }
    };
    const handlePageHide = () => autosaver.flush();
    document.addEventListener('visibilitychange', handleVisibilityChange);
    window.addEventListener('pagehide', handlePageHide);
    return () => {
      document.removeEventListener('visibilitychange', handleVisibilityChange);
      window.removeEventListener('pagehide', handlePageHide);
      autosaver.stop({ flush: true });
      autosaverRef.current = null;
    };
  }, [intervalMs]);

  const handleUpdate = useCallback((html: string) => {
    latestContentRef.current = html;
  }, []);

  const handleCrash = useCallback(() => {
    // Save what was typed before the crash, then restart from what is saved.
    autosaverRef.current?.flush();
    const latest = latestContentRef.current;
    const restartContent = lastSavedRef.current;
    const now = Date.now();
    setSession((previous) => {
      const crashTimes = [...previous.crashTimes, now].slice(-editorCrashPolicy.crashLimit);
      if (shouldGiveUp(crashTimes)) {
        return { ...previous, crashTimes, keptContent: latest };
      }
      return { generation: previous.generation + 1, content: restartContent, crashTimes, keptContent: null };
    });
  }, []);

  if (session.keptContent !== null) {
    return <GaveUp content={session.keptContent} />;
  }

  return (
    <Stack gap={6} data-testid="rich-text-editor" data-generation={session.generation}>
      <CrashGuard
        key={session.generation}
        onCrash={handleCrash}
        fallback={
          <Center mih={180} className={classes.frame} data-testid="rich-text-editor-restarting">
            <Loader size="sm" aria-label={t('editor.restarting')} />
          </Center>
        }
      >
        <TiptapEditor
          initialContent={session.content}
          onUpdate={handleUpdate}
          placeholder={placeholder}
          labelledBy={labelledBy}
          toolbarExtra={toolbarExtra}
          insertion={insertion}
        />
      </CrashGuard>
      <Group justify="space-between" gap="xs">
        {showSaveStatus ? (
          <Text size="xs" c="gray.7" data-testid="rich-text-editor-status" aria-live="polite">
            {savedAt
              ? t('editor.savedAt', {
                  time: clock.format(savedAt, { hour: 'numeric', minute: '2-digit', second: '2-digit' }),
                })
              : t('editor.autosaveHint', { seconds: intervalMs / 1000 })}
          </Text>
        ) : null}
        {session.generation > 0 ? (
          <Text size="xs" c="orange.9" data-testid="rich-text-editor-recovered">
            {t('editor.recovered')}
          </Text>
        ) : null}
      </Group>
    </Stack>
  );
}

function GaveUp({ content }: { content: string }) {
  const { t } = useTranslation();
  const html = useMemo(() => sanitizeHtml(content), [content]);
  const plainText = useMemo(
    () => new DOMParser().parseFromString(html, 'text/html').body.textContent ?? '',
    [html],
  );
  return (
    <Stack gap="sm" data-testid="rich-text-editor-gave-up">
      <Alert color="red" variant="light" icon={<IconAlertOctagon />} title={t('editor.gaveUpTitle')}>
        {t('editor.gaveUp')}
      </Alert>
      <Typography className={classes.keptContent}>
        <div data-testid="rich-text-editor-kept-content" dangerouslySetInnerHTML={{ __html: html }} />
      </Typography>
      <Group justify="flex-end">
        <CopyButton value={plainText || content}>
          {({ copied, copy }) => (
            <Button
              variant="light"
              leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
              onClick={copy}
              data-testid="rich-text-editor-copy"
            >
              {copied ? t('editor.copied') : t('editor.copy')}
            </Button>
          )}
        </CopyButton>
      </Group>
    </Stack>
  );
}
