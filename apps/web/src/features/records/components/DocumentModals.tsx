import '@mantine/core/styles/ModalBase.layer.css';
import '@mantine/core/styles/Modal.layer.css';
import '@mantine/core/styles/Overlay.layer.css';
import '@mantine/core/styles/CloseButton.layer.css';
import '@mantine/core/styles/Input.layer.css';
import { Button, Group, NativeSelect, Stack, Text } from '@mantine/core';
import { IconDownload, IconExternalLink } from '@tabler/icons-react';
import {
  documentCategories,
  documentFileFieldName,
  type ChartDocument,
  type DocumentCategory,
} from '@telemedicina/shared/documents';
import { useMediaQuery } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AppModal } from '../../../components/modal/AppModal';
import { Uploader } from '../../../components/uploader/Uploader';
import type { UploadManagerOptions } from '../../../components/uploader/upload-manager';
import { useUploadManager } from '../../../components/uploader/use-upload-manager';
import { useUploadLimits } from '../../../lib/use-upload-limits';
import { documentsUploadUrl, documentUrl } from '../api/documents';
import classes from './Documents.module.css';
import { queryKeys } from '../../../lib/query-keys';

/** How the app previews a document: an image viewer, a PDF frame, or not at all (download only). */
export function previewKindOf(document: Pick<ChartDocument, 'contentType'>): 'image' | 'pdf' | null {
  if (document.contentType === 'application/pdf') {
    return 'pdf';
  }
  return /^image\/(png|jpeg|webp|gif)$/.test(document.contentType) ? 'image' : null;
}

export interface DocumentViewerModalProps {
  patientId: string;
  document: ChartDocument | null;
  onClose: () => void;
}

/** The image viewer (with alt text) or the PDF preview (the browser's viewer in a same-origin frame). */
export function DocumentViewerModal({ patientId, document, onClose }: DocumentViewerModalProps) {
  const { t } = useTranslation();
  const kind = document ? previewKindOf(document) : null;
  const url = document ? documentUrl(patientId, document.id) : '';
  // On a phone the preview takes the whole screen, so the document and its buttons both fit.
  const isPhone = useMediaQuery('(max-width: 36em)') ?? false;
  return (
    <AppModal
      opened={document !== null}
      onClose={onClose}
      title={document?.name}
      size={kind === 'pdf' ? '80rem' : 'xl'}
      fullScreen={isPhone}
      classNames={{ title: classes.viewerTitle }}
      data-testid="document-viewer"
    >
      {document ? (
        <Stack gap="sm">
          {kind === 'image' ? (
            <div className={classes.imageFrame}>
              <img
                src={url}
                alt={t('records.documents.viewer.imageAlt', { name: document.name })}
                className={classes.image}
                data-testid="document-viewer-image"
              />
            </div>
          ) : null}
          {kind === 'pdf' ? (
            <iframe
              src={url}
              title={t('records.documents.viewer.pdfTitle', { name: document.name })}
              className={isPhone ? `${classes.pdfFrame} ${classes.pdfFramePhone}` : classes.pdfFrame}
              data-testid="document-viewer-pdf"
            />
          ) : null}
          <Group justify="flex-end" gap="xs">
            <Button
              component="a"
              href={url}
              target="_blank"
              rel="noopener noreferrer"
              variant="default"
              size="xs"
              leftSection={<IconExternalLink size={16} />}
            >
              {t('records.documents.viewer.openInTab')}
            </Button>
            <Button
              component="a"
              href={documentUrl(patientId, document.id, true)}
              download={document.name}
              size="xs"
              leftSection={<IconDownload size={16} />}
              data-testid="document-viewer-download"
            >
              {t('records.documents.download')}
            </Button>
          </Group>
        </Stack>
      ) : null}
    </AppModal>
  );
}

export interface UploadDocumentModalProps {
  patientId: string;
  opened: boolean;
  onClose: () => void;
}

/**
 * Adding documents: a category, then files through the shared uploader (progress, cancel, retry,
 * the clinic's limits; the server's refusals shown translated). Each finished upload refreshes
 * the chart.
 */
export function UploadDocumentModal({ patientId, opened, onClose }: UploadDocumentModalProps) {
  const { t } = useTranslation();
  return (
    <AppModal
      opened={opened}
      onClose={onClose}
      title={t('records.documents.uploadTitle')}
      size="lg"
      classNames={{ title: classes.viewerTitle }}
      data-testid="document-upload-dialog"
    >
      {opened ? <UploadDocumentForm patientId={patientId} onClose={onClose} /> : null}
    </AppModal>
  );
}

function UploadDocumentForm({ patientId, onClose }: { patientId: string; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const limits = useUploadLimits();
  const [category, setCategory] = useState<DocumentCategory>('other');
  const options = useMemo<UploadManagerOptions>(
    () => ({
      url: documentsUploadUrl(patientId),
      fieldName: documentFileFieldName,
      fields: { category },
      accept: limits?.accept,
      maxFileSize: limits?.maxFileSize,
      maxFiles: limits?.maxFiles,
      concurrency: 2,
      onUploaded: () => {
        void queryClient.invalidateQueries({ queryKey: queryKeys.patients.one(patientId) });
      },
    }),
    [patientId, category, limits, queryClient],
  );
  const uploader = useUploadManager(options);
  const isBusy = uploader.items.some((item) => item.status === 'queued' || item.status === 'uploading');
  return (
    <Stack gap="md">
      <NativeSelect
        label={t('records.documents.category')}
        data={documentCategories.map((value) => ({
          value,
          label: t(`records.documents.categories.${value}`),
        }))}
        value={category}
        onChange={(event) => {
          const picked = documentCategories.find((value) => value === event.currentTarget.value);
          setCategory(picked ?? 'other');
        }}
        data-testid="document-category"
      />
      <Uploader manager={uploader.manager} items={uploader.items} options={options} />
      <Text size="xs" c="gray.7">
        {t('records.documents.uploadHint')}
      </Text>
      <Group justify="flex-end">
        <Button onClick={onClose} variant={isBusy ? 'default' : 'filled'} data-testid="document-upload-done">
          {t('records.documents.done')}
        </Button>
      </Group>
    </Stack>
  );
}
