import '@mantine/core/styles/Paper.layer.css';
import '@mantine/core/styles/Badge.layer.css';
import '@mantine/core/styles/ActionIcon.layer.css';
import '@mantine/core/styles/Tooltip.layer.css';
import '@mantine/core/styles/Popover.layer.css';
import '@mantine/core/styles/UnstyledButton.layer.css';
import {
  ActionIcon,
  Anchor,
  Badge,
  Button,
  Group,
  Paper,
  Text,
  ThemeIcon,
  Title,
  Tooltip,
} from '@mantine/core';
import {
  IconDownload,
  IconEye,
  IconFile,
  IconFileTypePdf,
  IconPhoto,
  IconTrash,
  IconUpload,
} from '@tabler/icons-react';
import type { ChartDocument } from '@telemedicina/shared/documents';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/modal/ConfirmDialog';
import { useApiErrorText } from '../../../lib/error-text';
import { formatBytes, formatDateTime } from '../../../lib/format';
import { useLanguage } from '../../../lib/ui-state';
import { documentUrl, useRemoveDocument } from '../api/documents';
import { DocumentViewerModal, previewKindOf, UploadDocumentModal } from './DocumentModals';
import classes from './Documents.module.css';
import recordClasses from './Records.module.css';
import { useViewerTimeZone } from '../../../lib/use-clock';

export interface DocumentsSectionProps {
  patientId: string;
  documents: readonly ChartDocument[];
  /** The patient in their own chart, or a doctor who treats them (the server decides again). */
  canUpload: boolean;
}

/**
 * The chart's documents: uploads and visit summaries, newest first, with category, size, date and
 * who added them; a viewer for images and PDFs, a download link for everything, upload through the
 * shared uploader, and removal (kept as history) for those allowed.
 */
export function DocumentsSection({ patientId, documents, canUpload }: DocumentsSectionProps) {
  const { t } = useTranslation();
  const language = useLanguage();
  const timeZone = useViewerTimeZone();
  const errorText = useApiErrorText();
  const [isUploading, setIsUploading] = useState(false);
  const [viewing, setViewing] = useState<ChartDocument | null>(null);
  const [removing, setRemoving] = useState<ChartDocument | null>(null);
  const remove = useRemoveDocument(patientId);
  const when = (iso: string) => formatDateTime(iso, language, timeZone);

  return (
    <Paper withBorder radius="md" p="md" className={recordClasses.card} data-testid="chart-documents">
      <Group justify="space-between" mb="xs" wrap="nowrap">
        <Title order={2} size="h4">
          {t('records.sections.documents')}
        </Title>
        {canUpload ? (
          <Button
            size="xs"
            variant="light"
            leftSection={<IconUpload size={16} />}
            onClick={() => setIsUploading(true)}
            className={recordClasses.sectionAction}
            data-testid="documents-upload"
          >
            {t('records.documents.upload')}
          </Button>
        ) : null}
      </Group>
      {documents.length === 0 ? (
        <Text size="sm" c="gray.7">
          {t('records.empty.documents')}
        </Text>
      ) : (
        <ul className={classes.list} aria-label={t('records.sections.documents')}>
          {documents.map((document) => {
            const preview = previewKindOf(document);
            const isRemoved = document.removedAt !== null;
            return (
              <li
                key={document.id}
                className={`${classes.row} ${isRemoved ? classes.removed : ''}`}
                data-testid="document-row"
                data-name={document.name}
                data-removed={isRemoved}
              >
                <ThemeIcon
                  variant="light"
                  size={34}
                  radius="md"
                  color={preview === 'image' ? 'teal' : preview === 'pdf' ? 'red' : 'gray'}
                  aria-hidden
                >
                  {preview === 'image' ? (
                    <IconPhoto size={20} />
                  ) : preview === 'pdf' ? (
                    <IconFileTypePdf size={20} />
                  ) : (
                    <IconFile size={20} />
                  )}
                </ThemeIcon>
                <div className={classes.text}>
                  <Group gap={6} wrap="wrap">
                    {preview !== null && !isRemoved ? (
                      <Anchor
                        component="button"
                        type="button"
                        size="sm"
                        fw={600}
                        className={classes.name}
                        onClick={() => setViewing(document)}
                        data-testid="document-open"
                      >
                        {document.name}
                      </Anchor>
                    ) : (
                      <Text size="sm" fw={600} className={classes.name}>
                        {document.name}
                      </Text>
                    )}
                    {document.kind === 'visit_summary' ? (
                      <Badge
                        variant="light"
                        color="violet"
                        tt="none"
                        size="sm"
                        data-testid="document-summary-badge"
                      >
                        {t('records.documents.summaryBadge')}
                      </Badge>
                    ) : null}
                  </Group>
                  <Text size="xs" c="gray.7">
                    {[
                      t(`records.documents.categories.${document.category}`),
                      formatBytes(document.size, language),
                    ].join(' · ')}
                  </Text>
                  <Text size="xs" c="gray.7">
                    {isRemoved && document.removedAt
                      ? t('records.removedOn', { time: when(document.removedAt) })
                      : t('records.documents.addedBy', {
                          time: when(document.createdAt),
                          name: document.uploadedBy
                            ? document.uploadedBy.role === 'patient'
                              ? t('records.documents.byPatient', { name: document.uploadedBy.name })
                              : document.uploadedBy.name
                            : t('records.unknownPerson'),
                        })}
                  </Text>
                </div>
                {isRemoved ? null : (
                  <Group gap={2} wrap="nowrap" className={classes.actions}>
                    {preview !== null ? (
                      <Tooltip label={t('records.documents.view')}>
                        <ActionIcon
                          variant="subtle"
                          aria-label={t('records.documents.viewLabel', { name: document.name })}
                          onClick={() => setViewing(document)}
                          data-testid="document-view"
                        >
                          <IconEye size={18} />
                        </ActionIcon>
                      </Tooltip>
                    ) : null}
                    <Tooltip label={t('records.documents.download')}>
                      <ActionIcon
                        component="a"
                        href={documentUrl(patientId, document.id, true)}
                        download={document.name}
                        variant="subtle"
                        aria-label={t('records.documents.downloadLabel', { name: document.name })}
                        data-testid="document-download"
                      >
                        <IconDownload size={18} />
                      </ActionIcon>
                    </Tooltip>
                    {document.canRemove ? (
                      <Tooltip label={t('records.documents.remove.confirm')}>
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          aria-label={t('records.documents.remove.label', { name: document.name })}
                          onClick={() => setRemoving(document)}
                          data-testid="document-remove"
                        >
                          <IconTrash size={18} />
                        </ActionIcon>
                      </Tooltip>
                    ) : null}
                  </Group>
                )}
              </li>
            );
          })}
        </ul>
      )}
      <UploadDocumentModal patientId={patientId} opened={isUploading} onClose={() => setIsUploading(false)} />
      <DocumentViewerModal patientId={patientId} document={viewing} onClose={() => setViewing(null)} />
      <ConfirmDialog
        opened={removing !== null}
        title={t('records.documents.remove.title')}
        confirmLabel={t('records.documents.remove.confirm')}
        isDestructive
        isPending={remove.isPending}
        error={remove.error ? errorText(remove.error) : undefined}
        onConfirm={() => {
          if (removing) {
            remove.mutate(removing.id, { onSuccess: () => setRemoving(null) });
          }
        }}
        onCancel={() => {
          remove.reset();
          setRemoving(null);
        }}
        testId="document-remove-confirm"
      >
        {t('records.documents.remove.text', { name: removing?.name ?? '' })}
      </ConfirmDialog>
    </Paper>
  );
}
