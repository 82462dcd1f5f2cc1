import '@mantine/core/styles/ActionIcon.layer.css';
import '@mantine/core/styles/Tooltip.layer.css';
import '@mantine/core/styles/Popover.layer.css';
import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/Anchor.layer.css';
import { ActionIcon, Anchor, Group, Stack, Text, Textarea, Tooltip } from '@mantine/core';
import { IconPaperclip, IconSend } from '@tabler/icons-react';
import type { ChatMessage } from '@telemedicina/shared/visits';
import clsx from 'clsx';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Uploader } from '../../../components/uploader/Uploader';
import type { UploadManagerOptions } from '../../../components/uploader/upload-manager';
import { useUploadManager } from '../../../components/uploader/use-upload-manager';
import { formatBytes } from '../../../lib/format';
import { useLanguage } from '../../../lib/ui-state';
import { useUploadLimits } from '../../../lib/use-upload-limits';
import { visitFilesUrl } from '../api/files';
import type { ChatLog } from '../chat-log';
import classes from './Visit.module.css';
import { useClock } from '../../../lib/use-clock';

export interface ChatPanelProps {
  appointmentId: string;
  selfKey: string;
  chat: ChatLog;
  typing: readonly string[];
  /** False once the visit ended: the history stays readable. */
  canWrite: boolean;
  canShareFiles: boolean;
  onSend?: (body: string) => void;
  onTyping?: (typing: boolean) => void;
  onFileShared?: (message: ChatMessage) => void;
  className?: string;
  /** False inside a drawer that already shows the title. */
  showTitle?: boolean;
}

/**
 * The visit's chat: stored messages in sequence order (text shown as text, never as markup),
 * own pending ones greyed until acknowledged, who is typing, and files through the uploader.
 */
export function ChatPanel({
  appointmentId,
  selfKey,
  chat,
  typing,
  canWrite,
  canShareFiles,
  onSend,
  onTyping,
  onFileShared,
  className,
  showTitle = true,
}: ChatPanelProps) {
  const { t } = useTranslation();
  const language = useLanguage();
  const clock = useClock();
  const [draft, setDraft] = useState('');
  const [isUploaderOpen, setIsUploaderOpen] = useState(false);
  const listRef = useRef<HTMLUListElement>(null);
  const typingTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const isTyping = useRef(false);
  const limits = useUploadLimits();
  const onFileSharedRef = useRef(onFileShared);
  useEffect(() => {
    onFileSharedRef.current = onFileShared;
  });
  const uploadOptions = useMemo<UploadManagerOptions>(
    () => ({
      url: visitFilesUrl(appointmentId),
      fieldName: 'file',
      accept: limits?.accept,
      maxFileSize: limits?.maxFileSize,
      maxFiles: limits?.maxFiles,
      concurrency: 2,
      onUploaded: (item) => {
        const body = item.reply?.body as ChatMessage | undefined;
        if (body && typeof body.seq === 'number') {
          onFileSharedRef.current?.(body);
        }
        // The file is in the chat now: tidy the uploader away once nothing else is on its way.
        afterUploadRef.current(item.id);
      },
    }),
    [appointmentId, limits],
  );
  const uploader = useUploadManager(uploadOptions);
  const afterUploadRef = useRef<(id: string) => void>(() => undefined);
  useEffect(() => {
    afterUploadRef.current = (id: string) => {
      uploader.manager.remove(id);
      const isBusy = uploader.manager
        .getItems()
        .some((item) => item.status === 'queued' || item.status === 'uploading');
      if (!isBusy && uploader.manager.getItems().length === 0) {
        setIsUploaderOpen(false);
      }
    };
  });

  const count = chat.messages.length + chat.pending.length;
  useEffect(() => {
    const list = listRef.current;
    if (list) {
      list.scrollTop = list.scrollHeight;
    }
  }, [count]);

  const stopTyping = () => {
    if (typingTimer.current !== null) {
      clearTimeout(typingTimer.current);
      typingTimer.current = null;
    }
    if (isTyping.current) {
      isTyping.current = false;
      onTyping?.(false);
    }
  };

  const handleDraft = (value: string) => {
    setDraft(value);
    if (!isTyping.current && value.trim() !== '') {
      isTyping.current = true;
      onTyping?.(true);
    }
    if (typingTimer.current !== null) {
      clearTimeout(typingTimer.current);
    }
    typingTimer.current = setTimeout(stopTyping, 2_500);
  };

  const handleSubmit = (event?: React.FormEvent) => {
    event?.preventDefault();
    const body = draft.trim();
    if (body === '' || body.length > 4000) {
      return;
    }
    onSend?.(body);
    setDraft('');
    stopTyping();
  };

  return (
    <section
      className={clsx(classes.chat, className)}
      aria-label={t('visit.chat.title')}
      data-testid="visit-chat"
    >
      {showTitle ? (
        <Group
          justify="space-between"
          px="sm"
          py={8}
          style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}
        >
          <Text fw={650} size="sm">
            {t('visit.chat.title')}
          </Text>
        </Group>
      ) : null}
      <ul className={classes.chatList} ref={listRef} data-testid="visit-chat-list">
        {count === 0 ? (
          <li>
            <Text size="sm" c="gray.7" ta="center" mt="md">
              {t('visit.chat.empty')}
            </Text>
          </li>
        ) : null}
        {chat.messages.map((message) => {
          const isOwn = message.sender.key === selfKey;
          return (
            <li
              key={message.seq}
              className={clsx(classes.bubble, isOwn && classes.bubbleOwn)}
              data-testid="visit-chat-message"
              data-seq={message.seq}
            >
              <Text size="xs" c="gray.7">
                {isOwn ? t('visit.chat.you') : message.sender.name} · {clock.time(message.createdAt)}
              </Text>
              {message.kind === 'file' && message.file ? (
                <FileBody file={message.file} language={language} />
              ) : (
                <Text size="sm" data-testid="visit-chat-text">
                  {message.body}
                </Text>
              )}
            </li>
          );
        })}
        {chat.pending.map((pending) => (
          <li
            key={pending.clientId}
            className={clsx(classes.bubble, classes.bubbleOwn, classes.bubblePending)}
            data-testid="visit-chat-pending"
          >
            <Text size="xs" c={pending.status === 'failed' ? 'red.8' : 'gray.7'}>
              {pending.status === 'failed' ? t('visit.chat.failed') : t('visit.chat.sending')}
            </Text>
            <Text size="sm">{pending.body}</Text>
          </li>
        ))}
      </ul>
      <Text size="xs" c="gray.7" px="sm" mih={18} aria-live="polite" data-testid="visit-chat-typing">
        {typing.length > 0 ? t('visit.chat.typing', { names: typing.join(', ') }) : ''}
      </Text>
      {canWrite ? (
        <div className={classes.chatForm}>
          {isUploaderOpen && canShareFiles ? (
            <div style={{ marginBottom: 8 }}>
              <Uploader manager={uploader.manager} items={uploader.items} options={uploadOptions} />
            </div>
          ) : null}
          <form onSubmit={handleSubmit}>
            <Group gap={6} wrap="nowrap" align="flex-end">
              {canShareFiles ? (
                <Tooltip label={t('visit.chat.attach')}>
                  <ActionIcon
                    variant={isUploaderOpen ? 'filled' : 'default'}
                    size="lg"
                    aria-label={t('visit.chat.attach')}
                    aria-pressed={isUploaderOpen}
                    onClick={() => setIsUploaderOpen((open) => !open)}
                    data-testid="visit-chat-attach"
                  >
                    <IconPaperclip size={18} />
                  </ActionIcon>
                </Tooltip>
              ) : null}
              <Textarea
                value={draft}
                onChange={(event) => handleDraft(event.currentTarget.value)}
                onKeyDown={(event) => {
                  if (event.key === 'Enter' && !event.shiftKey) {
                    event.preventDefault();
                    handleSubmit();
                  }
                }}
                placeholder={t('visit.chat.placeholder')}
                aria-label={t('visit.chat.placeholder')}
                autosize
                minRows={1}
                maxRows={4}
                maxLength={4000}
                style={{ flex: 1 }}
                data-testid="visit-chat-input"
              />
              <ActionIcon
                type="submit"
                size="lg"
                aria-label={t('visit.chat.send')}
                disabled={draft.trim() === ''}
                data-testid="visit-chat-send"
              >
                <IconSend size={18} />
              </ActionIcon>
            </Group>
          </form>
        </div>
      ) : (
        <Text size="xs" c="gray.7" p="sm" data-testid="visit-chat-readonly">
          {t('visit.chat.readOnly')}
        </Text>
      )}
    </section>
  );
}

function FileBody({ file, language }: { file: NonNullable<ChatMessage['file']>; language: string }) {
  const isImage = /^image\/(png|jpeg|webp|gif)$/.test(file.contentType);
  return (
    <Stack gap={2}>
      <Anchor href={file.url} download={file.name} size="sm" data-testid="visit-chat-file">
        {file.name}
      </Anchor>
      <Text size="xs" c="gray.7">
        {formatBytes(file.size, language)}
      </Text>
      {isImage ? <img src={file.url} alt={file.name} className={classes.thumb} loading="lazy" /> : null}
    </Stack>
  );
}
