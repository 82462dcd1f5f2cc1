import '@mantine/core/styles/ActionIcon.layer.css';
import '@mantine/core/styles/Badge.layer.css';
import '@mantine/core/styles/Paper.layer.css';
import '@mantine/core/styles/Progress.layer.css';
import '@mantine/core/styles/Popover.layer.css';
import '@mantine/core/styles/Tooltip.layer.css';
import '@mantine/dropzone/styles.layer.css';
import { ActionIcon, Badge, Group, Paper, Progress, Stack, Text, ThemeIcon, Tooltip } from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import { IconCloudUpload, IconFile, IconPhoto, IconRefresh, IconTrash, IconX } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { formatAcceptedTypes, formatBytes } from '../../lib/format';
import { useLanguage } from '../../lib/ui-state';
import { describeFailure, describeRejection } from './describe-upload';
import { limitValue } from './upload-limits';
import type { UploadItem, UploadManager, UploadManagerOptions, UploadStatus } from './upload-manager';
import classes from './Uploader.module.css';

export interface UploaderProps {
  manager: UploadManager;
  items: readonly UploadItem[];
  /** The same options the manager was created with, to describe the limits to the person. */
  options: UploadManagerOptions;
  disabled?: boolean;
}

const statusColor: Record<UploadStatus, string> = {
  queued: 'gray',
  uploading: 'clinic',
  done: 'teal',
  failed: 'red',
  cancelled: 'gray',
  rejected: 'orange',
};

/**
 * Drop zone plus the list of files with per-file progress, cancel, retry and remove. Files are
 * checked against the limits when chosen; refused ones stay listed with the translated reason.
 */
export function Uploader({ manager, items, options, disabled = false }: UploaderProps) {
  const { t } = useTranslation();
  const language = useLanguage();
  const hints = describeLimits(options, t, language);

  return (
    <Stack gap="sm" data-testid="uploader">
      <Dropzone
        onDrop={(files) => manager.add(files)}
        disabled={disabled}
        className={classes.dropzone}
        data-testid="uploader-dropzone"
        inputProps={
          {
            'data-testid': 'uploader-input',
            'aria-label': t('uploader.choose'),
          } as React.InputHTMLAttributes<HTMLInputElement>
        }
        activateOnKeyboard
      >
        <Group justify="center" gap="md" wrap="nowrap" className={classes.dropzoneInner}>
          <ThemeIcon size={48} radius="xl" variant="light" aria-hidden>
            <IconCloudUpload size={26} stroke={1.6} />
          </ThemeIcon>
          <div>
            <Text fw={600}>{t('uploader.drop')}</Text>
            <Text size="sm" c="gray.7">
              {hints}
            </Text>
          </div>
        </Group>
      </Dropzone>

      {items.length > 0 ? (
        <Stack gap="xs" component="ul" className={classes.list} aria-label={t('uploader.listLabel')}>
          {items.map((item) => (
            <UploadRow key={item.id} item={item} manager={manager} />
          ))}
        </Stack>
      ) : null}
    </Stack>
  );
}

function UploadRow({ item, manager }: { item: UploadItem; manager: UploadManager }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const percent = item.total > 0 ? Math.round((item.loaded / item.total) * 100) : 0;
  const message = item.rejection
    ? describeRejection(item.rejection, t, language)
    : item.status === 'failed' && item.failure
      ? describeFailure(item.failure, t)
      : null;
  const isImage = item.file.type.startsWith('image/');

  return (
    <Paper
      component="li"
      withBorder
      p="sm"
      radius="md"
      className={classes.item}
      data-testid="uploader-item"
      data-status={item.status}
      data-file-name={item.file.name}
    >
      <Group wrap="nowrap" gap="sm" align="flex-start">
        <ThemeIcon variant="light" color={statusColor[item.status]} size={36} radius="md" aria-hidden>
          {isImage ? <IconPhoto size={20} /> : <IconFile size={20} />}
        </ThemeIcon>
        <Stack gap={4} className={classes.itemBody}>
          <Group gap="xs" wrap="nowrap" justify="space-between">
            <Text size="sm" fw={600} truncate="end" title={item.file.name}>
              {item.file.name}
            </Text>
            <Badge
              variant="light"
              color={statusColor[item.status]}
              className={classes.badge}
              data-testid="uploader-item-status"
            >
              {t(`uploader.status.${item.status}`)}
            </Badge>
          </Group>
          <Text size="xs" c="gray.7">
            {formatBytes(item.file.size, language)}
            {item.status === 'uploading' ? ` · ${percent} %` : ''}
          </Text>
          {item.status === 'uploading' || item.status === 'done' || item.status === 'queued' ? (
            <Progress
              value={item.status === 'done' ? 100 : percent}
              size="sm"
              color={item.status === 'done' ? 'teal' : 'clinic'}
              striped={item.status === 'uploading'}
              animated={item.status === 'uploading'}
              aria-label={t('uploader.progress', { name: item.file.name })}
              data-testid="uploader-item-progress"
            />
          ) : null}
          {message ? (
            <Text
              size="xs"
              c={item.status === 'rejected' ? 'orange.9' : 'red.8'}
              data-testid="uploader-item-message"
            >
              {message}
            </Text>
          ) : null}
        </Stack>
        <Group gap={4} wrap="nowrap">
          {item.status === 'queued' || item.status === 'uploading' ? (
            <Tooltip label={t('uploader.cancel')}>
              <ActionIcon
                variant="subtle"
                color="gray"
                aria-label={t('uploader.cancel')}
                onClick={() => manager.cancel(item.id)}
                data-testid="uploader-item-cancel"
              >
                <IconX size={18} />
              </ActionIcon>
            </Tooltip>
          ) : null}
          {item.status === 'failed' || item.status === 'cancelled' ? (
            <Tooltip label={t('uploader.retry')}>
              <ActionIcon
                variant="subtle"
                aria-label={t('uploader.retry')}
                onClick={() => manager.retry(item.id)}
                data-testid="uploader-item-retry"
              >
                <IconRefresh size={18} />
              </ActionIcon>
            </Tooltip>
          ) : null}
          {item.status !== 'queued' && item.status !== 'uploading' ? (
            <Tooltip label={t('uploader.remove')}>
              <ActionIcon
                variant="subtle"
                color="gray"
                aria-label={t('uploader.remove')}
                onClick={() => manager.remove(item.id)}
                data-testid="uploader-item-remove"
              >
                <IconTrash size={18} />
              </ActionIcon>
            </Tooltip>
          ) : null}
        </Group>
      </Group>
    </Paper>
  );
}

function describeLimits(options: UploadManagerOptions, t: TFunction, language: string): string {
  const parts: string[] = [];
  const maxFiles = limitValue(options.maxFiles);
  const maxFileSize = limitValue(options.maxFileSize);
  if (options.accept && options.accept.length > 0) {
    parts.push(t('uploader.limits.types', { accept: formatAcceptedTypes(options.accept) }));
  }
  if (maxFileSize !== null) {
    parts.push(t('uploader.limits.size', { max: formatBytes(maxFileSize, language) }));
  }
  if (maxFiles !== null) {
    parts.push(t('uploader.limits.count', { count: maxFiles }));
  }
  return parts.length > 0 ? parts.join(' · ') : t('uploader.limits.none');
}
