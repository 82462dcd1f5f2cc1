import { Alert, Anchor, Badge, Group, Skeleton, Stack, Tabs, Text } from '@mantine/core';
import { IconLock, IconPaperclip } from '@tabler/icons-react';
import { useMediaQuery } from '@mantine/hooks';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AppModal } from '../../../components/modal/AppModal';
import { useApiErrorText } from '../../../lib/error-text';
import { formatBytes, formatDateTime } from '../../../lib/format';
import { useLanguage } from '../../../lib/ui-state';
import { outboxAttachmentUrl } from '../api/get-outbox-attachment';
import { useOutboxMessage } from '../api/get-outbox-message';
import { splitLinks, toEmailDocument } from '../email-document';
import classes from './Outbox.module.css';
import { outboxStatusColors } from '../status-colors';
import { useTemplateLabel } from '../template-label';

/** One stored email: who, what, when, its attachments (download links), its HTML (sandboxed) and its text version with live links. */
export function OutboxMessageDialog({
  id,
  timeZone,
  onClose,
}: {
  id: string;
  timeZone: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const templateLabel = useTemplateLabel();
  const language = useLanguage();
  const errorText = useApiErrorText();
  const isPhone = useMediaQuery('(max-width: 36em)') ?? false;
  const message = useOutboxMessage(id);
  const [tab, setTab] = useState<string | null>('html');
  const document = useMemo(() => (message.data ? toEmailDocument(message.data.html) : ''), [message.data]);
  const textParts = useMemo(() => (message.data ? splitLinks(message.data.text) : []), [message.data]);

  return (
    <AppModal
      opened={id !== ''}
      onClose={onClose}
      size="xl"
      fullScreen={isPhone}
      title={message.data?.subject ?? t('outbox.message.title')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
      attributes={{ content: { 'data-testid': 'outbox-message' } }}
    >
      {message.isPending ? (
        <Stack gap="xs" aria-busy="true">
          <Skeleton height={20} />
          <Skeleton height={20} />
          <Skeleton height={240} />
        </Stack>
      ) : message.isError ? (
        <Alert color="red" variant="light" role="alert">
          {errorText(message.error)}
        </Alert>
      ) : (
        <Stack gap="md">
          <dl className={classes.facts}>
            <dt>{t('outbox.columns.to')}</dt>
            <dd data-testid="outbox-message-to">{message.data.to}</dd>
            <dt>{t('outbox.columns.subject')}</dt>
            <dd data-testid="outbox-message-subject">{message.data.subject}</dd>
            <dt>{t('outbox.columns.date')}</dt>
            <dd>{formatDateTime(message.data.createdAt, language, timeZone)}</dd>
            <dt>{t('outbox.columns.status')}</dt>
            <dd>
              <Badge variant="light" tt="none" color={outboxStatusColors[message.data.status]}>
                {t(`outbox.status.${message.data.status}`)}
              </Badge>
            </dd>
            <dt>{t('outbox.columns.template')}</dt>
            <dd>
              {templateLabel(message.data.template)} · {t(`languages.${message.data.language}.name`)}
            </dd>
            {message.data.error ? (
              <>
                <dt>{t('outbox.message.error')}</dt>
                <dd>{message.data.error}</dd>
              </>
            ) : null}
          </dl>
          {message.data.hiddenLinks > 0 ? (
            <Alert
              color="blue"
              variant="light"
              icon={<IconLock size={18} stroke={1.7} aria-hidden />}
              data-testid="outbox-hidden-links"
            >
              {t('outbox.message.hiddenLinks')}
            </Alert>
          ) : null}
          {message.data.attachments.length > 0 ? (
            <section aria-labelledby="outbox-attachments-title" data-testid="outbox-attachments">
              <Text id="outbox-attachments-title" fw={600} size="sm" mb={6}>
                {t('outbox.attachments.title')}
              </Text>
              <ul className={classes.attachments}>
                {message.data.attachments.map((attachment, index) => (
                  <li key={`${index}-${attachment.filename}`}>
                    <Group gap={8} wrap="nowrap" align="center">
                      <IconPaperclip size={18} stroke={1.7} aria-hidden className={classes.attachmentIcon} />
                      {attachment.isClinical ? (
                        <Text
                          span
                          className={classes.attachmentName}
                          data-testid="outbox-attachment-clinical"
                        >
                          {attachment.filename}
                        </Text>
                      ) : (
                        <Anchor
                          href={outboxAttachmentUrl(message.data.id, index)}
                          download={attachment.filename}
                          className={classes.attachmentName}
                          aria-label={t('outbox.attachments.download', { filename: attachment.filename })}
                          data-testid="outbox-attachment"
                        >
                          {attachment.filename}
                        </Anchor>
                      )}
                      <Text size="xs" c="dimmed" className={classes.attachmentMeta}>
                        {t('outbox.attachments.meta', {
                          type: attachment.contentType.split(';')[0]?.trim() ?? attachment.contentType,
                          size: formatBytes(attachment.size, language),
                        })}
                      </Text>
                    </Group>
                    {attachment.isClinical ? (
                      <Text size="xs" c="dimmed" mt={2}>
                        {t('outbox.attachments.clinical')}
                      </Text>
                    ) : null}
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
          <Tabs value={tab} onChange={setTab} keepMounted={false}>
            <Tabs.List>
              <Tabs.Tab value="html" data-testid="outbox-message-tab-html">
                {t('outbox.message.html')}
              </Tabs.Tab>
              <Tabs.Tab value="text" data-testid="outbox-message-tab-text">
                {t('outbox.message.text')}
              </Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="html" pt="md">
              <iframe
                className={classes.frame}
                title={t('outbox.message.frameTitle', { subject: message.data.subject })}
                srcDoc={document}
                sandbox="allow-popups allow-popups-to-escape-sandbox"
                referrerPolicy="no-referrer"
                data-testid="outbox-message-html"
              />
            </Tabs.Panel>
            <Tabs.Panel value="text" pt="md">
              <pre className={classes.text} data-testid="outbox-message-text">
                {textParts.map((part, index) =>
                  part.kind === 'link' ? (
                    <Anchor key={index} href={part.href} data-testid="outbox-message-link">
                      {part.href}
                    </Anchor>
                  ) : part.kind === 'hiddenLink' ? (
                    <Text span key={index} inherit c="dimmed" data-testid="outbox-message-hidden-link">
                      {`${part.base} · ${t('outbox.message.linkHidden')}`}
                    </Text>
                  ) : (
                    <span key={index}>{part.text}</span>
                  ),
                )}
              </pre>
            </Tabs.Panel>
          </Tabs>
        </Stack>
      )}
    </AppModal>
  );
}
