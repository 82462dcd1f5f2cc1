import '@mantine/core/styles/Paper.layer.css';
import '@mantine/core/styles/Badge.layer.css';
import '@mantine/core/styles/Alert.layer.css';
import { Alert, Badge, Button, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { IconEdit, IconPlus } from '@tabler/icons-react';
import type { ConsentDocumentAdmin } from '@telemedicina/shared/consents';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { SectionForbidden } from '../../../../components/section-page/SectionForbidden';
import { SectionHeader } from '../../../../components/section-page/SectionHeader';
import pageClasses from '../../../../components/section-page/SectionPage.module.css';
import { useApiErrorText } from '../../../../lib/error-text';
import { useClock } from '../../../../lib/use-clock';
import { useHasAnyPermission, useLanguage } from '../../../../lib/ui-state';
import { useAdminConsentDocuments } from '../../api/admin-consent-documents';
import classes from './ConsentAdmin.module.css';

/** The address of a document's editor (`new` for a document still to write). */
export const consentEditorPath = (id: string) => `/admin/consent-documents/${encodeURIComponent(id)}`;

/**
 * `/admin/consent-documents` (settings.manage): the documents patients read and sign, each with its
 * kind, current version, when it was published (in the administrator's zone) and how many patients
 * stand signed to that version; a way to write a new one and to edit (publish a new version).
 */
export function ConsentDocumentsAdminPage() {
  const isAllowed = useHasAnyPermission(['settings.manage']);
  return isAllowed ? (
    <ConsentDocumentsList />
  ) : (
    <div className={pageClasses.page}>
      <SectionForbidden />
    </div>
  );
}

function ConsentDocumentsList() {
  const { t } = useTranslation();
  const documents = useAdminConsentDocuments();
  const errorText = useApiErrorText();
  return (
    <div className={pageClasses.page} data-testid="consent-documents-admin">
      <SectionHeader title={t('consents.admin.title')} description={t('consents.admin.description')}>
        <Button
          component={Link}
          to={consentEditorPath('new')}
          leftSection={<IconPlus size={18} />}
          data-testid="consent-document-new"
        >
          {t('consents.admin.new')}
        </Button>
      </SectionHeader>
      {documents.isPending ? (
        <Loader aria-label={t('consents.admin.loading')} />
      ) : documents.isError ? (
        <Alert color="red" variant="light" data-testid="consent-documents-error">
          {errorText(documents.error)}
        </Alert>
      ) : documents.data.items.length === 0 ? (
        <Text c="gray.7">{t('consents.admin.empty')}</Text>
      ) : (
        <Stack gap="sm" component="ul" className={classes.list}>
          {documents.data.items.map((document) => (
            <DocumentRow key={document.id} document={document} />
          ))}
        </Stack>
      )}
    </div>
  );
}

function DocumentRow({ document }: { document: ConsentDocumentAdmin }) {
  const { t } = useTranslation();
  const clock = useClock();
  const language = useLanguage();
  const title = language === 'en' ? document.current.titleEn : document.current.titleEs;
  return (
    <Paper
      withBorder
      radius="md"
      p="md"
      component="li"
      className={classes.row}
      data-testid="consent-document-row"
      data-kind={document.kind}
    >
      <div className={classes.rowText}>
        <Group gap="xs" wrap="wrap">
          <Text fw={650} data-testid="consent-document-title">
            {title}
          </Text>
          <Badge variant="light" color="clinic" tt="none">
            {t(`consents.kinds.${document.kind}`)}
          </Badge>
        </Group>
        <Text size="sm" c="gray.7" data-testid="consent-document-version">
          {t('consents.admin.current', {
            version: document.current.version,
            date: clock.date(document.current.publishedAt),
          })}
        </Text>
        <Text size="sm" c="gray.7" data-testid="consent-document-signers">
          {t('consents.admin.currentSigners', { count: document.currentSignersCount })}
        </Text>
      </div>
      <Button
        component={Link}
        to={consentEditorPath(document.id)}
        variant="default"
        leftSection={<IconEdit size={18} />}
        aria-label={t('consents.admin.editLabel', { title })}
        data-testid="consent-document-edit"
      >
        {t('consents.admin.edit')}
      </Button>
    </Paper>
  );
}
