import { Button, Loader, Stack, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useApiErrorText } from '../../../lib/error-text';
import { formatBytes } from '../../../lib/format';
import { useLanguage } from '../../../lib/ui-state';
import { useDownloadOwnRecord, type DownloadProgress } from '../api/export-record';

/** "Preparing…" until the first bytes arrive, then how much has arrived (and of how much, when known). */
export function useExportProgressText() {
  const { t } = useTranslation();
  const language = useLanguage();
  return (progress: DownloadProgress | null): string => {
    if (progress === null || progress.receivedBytes === 0) {
      return t('recordExport.preparing');
    }
    const received = formatBytes(progress.receivedBytes, language);
    return progress.totalBytes === null
      ? t('recordExport.downloading', { received })
      : t('recordExport.downloadingOf', { received, total: formatBytes(progress.totalBytes, language) });
  };
}

/**
 * The patient's "Download my medical record": a ZIP file with everything in the record (JSON,
 * README and the PDFs). Shows its progress on the button and a translated error beneath it.
 */
export function RecordExportButton() {
  const { t } = useTranslation();
  const errorText = useApiErrorText();
  const progressText = useExportProgressText();
  const download = useDownloadOwnRecord();
  return (
    <Stack gap={4} align="flex-start" data-testid="record-export">
      <Button
        size="xs"
        variant="light"
        leftSection={download.isPending ? <Loader size={14} /> : <IconDownload size={16} aria-hidden />}
        disabled={download.isPending}
        aria-busy={download.isPending}
        onClick={() => download.mutate()}
        data-testid="record-export-download"
      >
        {download.isPending ? progressText(download.progress) : t('recordExport.download')}
      </Button>
      {download.isError ? (
        <Text size="xs" c="red.8" role="alert" maw={320} data-testid="record-export-error">
          {errorText(download.error)}
        </Text>
      ) : null}
    </Stack>
  );
}
