import '@mantine/core/styles/Paper.layer.css';
import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/SegmentedControl.layer.css';
import '@mantine/core/styles/SimpleGrid.layer.css';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  Alert,
  Anchor,
  Button,
  Group,
  Loader,
  NativeSelect,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { IconInfoCircle, IconSend } from '@tabler/icons-react';
import {
  consentDocumentKinds,
  createConsentDocumentRequestSchema,
  type ConsentDocumentAdmin,
  type CreateConsentDocumentRequest,
} from '@telemedicina/shared/consents';
import { useState } from 'react';
import { useForm, useWatch, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { SectionForbidden } from '../../../../components/section-page/SectionForbidden';
import pageClasses from '../../../../components/section-page/SectionPage.module.css';
import { ApiError, publishApiErrorAlert } from '../../../../lib/api-client';
import { useApiErrorText } from '../../../../lib/error-text';
import { applyServerFieldErrors, useFieldErrorText } from '../../../../lib/form-errors';
import { useHasAnyPermission } from '../../../../lib/ui-state';
import { useClock } from '../../../../lib/use-clock';
import { useMediaMatch } from '../../../../lib/use-media-match';
import { useAdminConsentDocuments } from '../../api/admin-consent-documents';
import { useCreateConsentDocument } from '../../api/create-consent-document';
import { usePublishConsentVersion } from '../../api/publish-consent-version';
import classes from './ConsentAdmin.module.css';
import { ConsentDocumentPreview } from './ConsentDocumentPreview';

type ConsentForm = CreateConsentDocumentRequest;
type View = 'write' | 'es' | 'en';
const textFields = ['titleEs', 'titleEn', 'bodyEs', 'bodyEn'] as const;
const listPath = '/admin/consent-documents';

/**
 * `/admin/consent-documents/new` and `/admin/consent-documents/:id`: the Spanish and English text
 * side by side (columns on a wide screen, one after the other on a phone), a preview in each
 * language as the patient reads it before signing, and — for an existing document — publishing the
 * change as its next version, saying plainly that patients with visits ahead are asked again.
 */
export function ConsentDocumentEditorPage() {
  const isAllowed = useHasAnyPermission(['settings.manage']);
  return isAllowed ? (
    <EditorRoute />
  ) : (
    <div className={pageClasses.page}>
      <SectionForbidden />
    </div>
  );
}

function EditorRoute() {
  const { t } = useTranslation();
  const { id = 'new' } = useParams();
  const documents = useAdminConsentDocuments();
  const errorText = useApiErrorText();
  if (id === 'new') {
    return <ConsentDocumentEditor document={null} />;
  }
  if (documents.isPending) {
    return <Loader aria-label={t('consents.admin.loading')} />;
  }
  const document = documents.data?.items.find((item) => item.id === id);
  if (document === undefined) {
    return (
      <div className={pageClasses.page}>
        <Alert color="red" variant="light" data-testid="consent-document-missing">
          {documents.isError ? errorText(documents.error) : t('consents.admin.missing')}
        </Alert>
      </div>
    );
  }
  return <ConsentDocumentEditor key={`${document.id}-${document.current.version}`} document={document} />;
}

export function ConsentDocumentEditor({ document }: { document: ConsentDocumentAdmin | null }) {
  const { t } = useTranslation();
  const clock = useClock();
  const navigate = useNavigate();
  const fieldErrorText = useFieldErrorText();
  const create = useCreateConsentDocument();
  const publish = usePublishConsentVersion(document?.id ?? '');
  const [view, setView] = useState<View>('write');
  const isPhone = useMediaMatch('(max-width: 36em)');
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm<ConsentForm>({
    resolver: zodResolver(createConsentDocumentRequestSchema),
    defaultValues: document
      ? {
          kind: document.kind,
          titleEs: document.current.titleEs,
          titleEn: document.current.titleEn,
          bodyEs: document.current.bodyEs,
          bodyEn: document.current.bodyEn,
        }
      : { kind: 'procedure', titleEs: '', titleEn: '', bodyEs: '', bodyEn: '' },
  });
  const { errors } = form.formState;
  const nextVersion = (document?.current.version ?? 0) + 1;

  const handleSubmit = form.handleSubmit(
    async (values) => {
      setProblem(null);
      try {
        if (document === null) {
          await create.mutateAsync(values);
        } else {
          const { kind: _kind, ...text } = values;
          await publish.mutateAsync(text);
        }
        void navigate(listPath, { state: { published: nextVersion } });
      } catch (error) {
        const reason =
          error instanceof ApiError ? (error.details as { reason?: unknown } | null)?.reason : undefined;
        if (reason === 'consents.unchanged') {
          setProblem(t('consents.unchanged'));
          return;
        }
        if (!applyServerFieldErrors(error, form.setError, ['kind', ...textFields])) {
          publishApiErrorAlert(error);
        }
      }
    },
    // A field left empty may be hidden behind a preview: go back to writing to show it.
    () => setView('write'),
  );

  const languageColumn = (language: 'es' | 'en') => {
    const title = language === 'es' ? 'titleEs' : 'titleEn';
    const body = language === 'es' ? 'bodyEs' : 'bodyEn';
    return (
      <Stack gap="sm" className={classes.column} data-testid={`consent-editor-${language}`}>
        <Title order={2} size="h5">
          {t(language === 'es' ? 'consents.admin.spanish' : 'consents.admin.english')}
        </Title>
        <TextInput
          label={t(language === 'es' ? 'consents.admin.titleEs' : 'consents.admin.titleEn')}
          required
          {...form.register(title)}
          error={fieldErrorText(errors[title]?.message)}
          data-testid={`consent-${title}`}
        />
        <Textarea
          label={t(language === 'es' ? 'consents.admin.bodyEs' : 'consents.admin.bodyEn')}
          required
          autosize
          minRows={10}
          maxRows={28}
          {...form.register(body)}
          error={fieldErrorText(errors[body]?.message)}
          data-testid={`consent-${body}`}
        />
      </Stack>
    );
  };

  return (
    <div className={pageClasses.page} data-testid="consent-document-editor">
      <Stack gap="lg">
        <Anchor component={Link} to={listPath} size="sm">
          {t('consents.admin.back')}
        </Anchor>
        <Stack gap={4}>
          <Title order={1} className={pageClasses.title}>
            {document === null ? t('consents.admin.createTitle') : t('consents.admin.editTitle')}
          </Title>
          <Text c="gray.7" data-testid="consent-editor-status">
            {document === null
              ? t('consents.admin.createHint')
              : `${t('consents.admin.current', {
                  version: document.current.version,
                  date: clock.date(document.current.publishedAt),
                })} · ${t('consents.admin.currentSigners', { count: document.currentSignersCount })}`}
          </Text>
        </Stack>
        <form onSubmit={(event) => void handleSubmit(event)} noValidate>
          <Stack gap="lg">
            {document === null ? (
              <NativeSelect
                label={t('consents.admin.kind')}
                description={t('consents.admin.kindHint')}
                maw={360}
                data={consentDocumentKinds.map((kind) => ({
                  value: kind,
                  label: t(`consents.kinds.${kind}`),
                }))}
                {...form.register('kind')}
                error={fieldErrorText(errors.kind?.message)}
                data-testid="consent-kind"
              />
            ) : (
              <Text size="sm">
                {t('consents.admin.kind')}: <strong>{t(`consents.kinds.${document.kind}`)}</strong>
              </Text>
            )}
            <SegmentedControl
              value={view}
              onChange={(value) => setView(value === 'es' || value === 'en' ? value : 'write')}
              data={[
                { value: 'write', label: t('consents.admin.write') },
                { value: 'es', label: t('consents.admin.previewEs') },
                { value: 'en', label: t('consents.admin.previewEn') },
              ]}
              // Three long labels do not fit side by side on a phone: one under the other there.
              orientation={isPhone ? 'vertical' : 'horizontal'}
              fullWidth={isPhone}
              data-testid="consent-editor-view"
            />
            <div hidden={view !== 'write'}>
              <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
                {languageColumn('es')}
                {languageColumn('en')}
              </SimpleGrid>
            </div>
            {view === 'write' ? null : (
              <PreviewOf control={form.control} language={view} version={nextVersion} />
            )}
            <Alert
              color={document === null ? 'blue' : 'yellow'}
              variant="light"
              icon={<IconInfoCircle size={20} aria-hidden />}
              data-testid="consent-publish-notice"
            >
              {document === null
                ? t('consents.admin.createNotice')
                : t('consents.admin.publishNotice', { version: nextVersion })}
            </Alert>
            {problem === null ? null : (
              <Alert color="red" variant="light" data-testid="consent-editor-problem">
                {problem}
              </Alert>
            )}
            <Group justify="flex-end" gap="sm">
              <Button component={Link} to={listPath} variant="default">
                {t('consents.cancel')}
              </Button>
              <Button
                type="submit"
                leftSection={<IconSend size={18} />}
                loading={create.isPending || publish.isPending}
                data-testid="consent-editor-submit"
              >
                {document === null
                  ? t('consents.admin.create')
                  : t('consents.admin.publishVersion', { version: nextVersion })}
              </Button>
            </Group>
          </Stack>
        </form>
      </Stack>
    </div>
  );
}

/** The preview follows what is typed (only while it shows). */
function PreviewOf({
  control,
  language,
  version,
}: {
  control: Control<ConsentForm>;
  language: 'es' | 'en';
  version: number;
}) {
  const [titleEs, titleEn, bodyEs, bodyEn] = useWatch({ control, name: [...textFields] });
  return (
    <ConsentDocumentPreview
      language={language}
      version={version}
      title={language === 'en' ? titleEn : titleEs}
      body={language === 'en' ? bodyEn : bodyEs}
    />
  );
}
