import { Alert, Anchor, Button, Group, Loader, NativeSelect, Stack, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import type { Questionnaire } from '@medplum/fhirtypes';
import type { QuestionnaireDetail } from '@telemedicina/shared/questionnaire-builder';
import { definitionProblemSchema } from '@telemedicina/shared/questionnaire-builder';
import { questionnaireDefinitionProblems } from '@telemedicina/shared/questionnaire-definition';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useBlocker, useNavigate, useParams } from 'react-router';
import { z } from 'zod';
import { ConfirmDialog } from '../../../components/modal/ConfirmDialog';
import { SectionForbidden } from '../../../components/section-page/SectionForbidden';
import { SectionHeader } from '../../../components/section-page/SectionHeader';
import pageClasses from '../../../components/section-page/SectionPage.module.css';
import { ApiError, publishApiErrorAlert } from '../../../lib/api-client';
import { useHasAnyPermission, useLanguage } from '../../../lib/ui-state';
import { useChangeQuestionnaire } from '../api/change-questionnaire';
import { useQuestionnaire } from '../api/get-questionnaire';
import { usePublishQuestionnaire } from '../api/publish-questionnaire';
import {
  type Draft,
  type DraftType,
  draftTypes,
  emptyDraft,
  fromQuestionnaire,
  moveItem,
  newItem,
  toQuestionnaire,
} from '../lib/draft';
import { AssignmentsPanel } from './AssignmentsPanel';
import { BilingualField } from './BilingualField';
import { ItemEditor } from './ItemEditor';
import { type PreviewField, PhonePreview } from './PhonePreview';
import classes from './QuestionnaireBuilder.module.css';
import { builderPermissions } from './QuestionnairesPage';
import { useProblemText } from './problem-text';

const serverProblemsSchema = z.object({ problems: z.array(definitionProblemSchema) });

/**
 * `/admin/questionnaires/new` and `/admin/questionnaires/:id`: the editor (items added, moved and
 * removed; words in Spanish and English side by side; choices, units and ranges, required, "show
 * only when"), a live preview on a phone, where it is sent, archive. Saving publishes a new version;
 * patients who already answered keep theirs. Leaving with unsaved changes asks first.
 */
export function QuestionnaireEditorPage({ PreviewField }: { PreviewField: PreviewField }) {
  const { t } = useTranslation();
  const { id = 'new' } = useParams();
  const isAllowed = useHasAnyPermission(builderPermissions);
  const questionnaireId = id === 'new' ? null : id;
  const loaded = useQuestionnaire(isAllowed ? questionnaireId : null);

  if (!isAllowed) {
    return (
      <div className={pageClasses.page}>
        <SectionHeader
          title={t('admin.nav.questionnaires')}
          description={t('admin.sections.questionnaires')}
        />
        <SectionForbidden />
      </div>
    );
  }
  if (questionnaireId !== null && loaded.isPending) {
    return (
      <div className={pageClasses.page}>
        <Loader aria-label={t('questionnaireBuilder.loading')} />
      </div>
    );
  }
  if (questionnaireId !== null && (loaded.isError || loaded.data === undefined)) {
    return (
      <div className={pageClasses.page}>
        <Alert color="red" variant="light">
          {t('questionnaireBuilder.editor.loadError')}
        </Alert>
      </div>
    );
  }
  const detail = loaded.data ?? null;
  return (
    <Editor
      key={detail === null ? 'new' : `${detail.id}-${detail.version}`}
      detail={detail}
      PreviewField={PreviewField}
    />
  );
}

function Editor({
  detail,
  PreviewField,
}: {
  detail: QuestionnaireDetail | null;
  PreviewField: PreviewField;
}) {
  const { t } = useTranslation();
  const language = useLanguage();
  const navigate = useNavigate();
  const isClinic = useHasAnyPermission(['settings.manage']);
  const initial = useMemo(
    () =>
      detail === null ? emptyDraft() : fromQuestionnaire(detail.questionnaire as unknown as Questionnaire),
    [detail],
  );
  const [draft, setDraft] = useState<Draft>(initial);
  const [baseline, setBaseline] = useState(() => JSON.stringify(initial));
  const [problems, setProblems] = useState<string[]>([]);
  const [isPublished, setIsPublished] = useState(false);
  const [newType, setNewType] = useState<DraftType>('string');
  const publish = usePublishQuestionnaire();
  const archive = useChangeQuestionnaire(detail?.id ?? '');
  const problemText = useProblemText();
  const leaving = useRef(false);
  const isReadOnly = detail !== null && !detail.canEdit;
  const isDirty = !isReadOnly && JSON.stringify(draft) !== baseline;
  const questionnaire = useMemo(() => toQuestionnaire(draft), [draft]);

  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      isDirty && !leaving.current && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (!isDirty) {
      return undefined;
    }
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [isDirty]);

  const update = (next: Draft) => {
    setIsPublished(false);
    setDraft(next);
  };
  const setItems = (items: Draft['items']) => update({ ...draft, items });

  const handlePublish = async () => {
    const found = questionnaireDefinitionProblems(questionnaire);
    if (found.length > 0) {
      setProblems(found.map((problem) => problemText(questionnaire, problem)));
      return;
    }
    setProblems([]);
    try {
      const saved = await publish.mutateAsync({ id: detail?.id ?? null, questionnaire });
      setBaseline(JSON.stringify(draft));
      setIsPublished(true);
      if (detail === null) {
        leaving.current = true;
        void navigate(`/admin/questionnaires/${saved.id}`, { replace: true });
      }
    } catch (error) {
      const parsed = error instanceof ApiError ? serverProblemsSchema.safeParse(error.details) : null;
      if (parsed?.success === true) {
        setProblems(parsed.data.problems.map((problem) => problem.message));
      } else {
        publishApiErrorAlert(error);
      }
    }
  };

  const title = detail === null ? t('questionnaireBuilder.editor.newTitle') : detail.title[language];
  const nextVersion = (detail?.version ?? 0) + 1;

  return (
    <div className={pageClasses.page} data-testid="questionnaire-editor">
      <Anchor component={Link} to="/admin/questionnaires" size="sm">
        {t('questionnaireBuilder.editor.back')}
      </Anchor>
      <SectionHeader
        title={title}
        description={
          detail === null
            ? t('questionnaireBuilder.editor.newDescription')
            : t('questionnaireBuilder.editor.description', { version: detail.version })
        }
      >
        {detail !== null && detail.canEdit ? (
          <Button
            variant="default"
            loading={archive.isPending}
            onClick={() => archive.mutate({ kind: 'archive', archived: !detail.archived })}
          >
            {detail.archived
              ? t('questionnaireBuilder.editor.restore')
              : t('questionnaireBuilder.editor.archive')}
          </Button>
        ) : null}
      </SectionHeader>
      {detail?.archived === true ? (
        <Alert color="gray" variant="light" mb="md">
          {t('questionnaireBuilder.editor.archivedNote')}
        </Alert>
      ) : null}
      {isReadOnly ? (
        <Alert color="indigo" variant="light" mb="md" data-testid="builder-read-only">
          {detail.shipped
            ? t('questionnaireBuilder.editor.shippedNote')
            : t('questionnaireBuilder.editor.readOnlyNote')}
        </Alert>
      ) : null}
      <div className={classes.layout}>
        <Stack gap="md">
          {isReadOnly ? null : (
            <>
              <BilingualField
                label={t('questionnaireBuilder.editor.titleLabel')}
                es={draft.titleEs}
                en={draft.titleEn}
                onChange={({ es, en }) => update({ ...draft, titleEs: es, titleEn: en })}
                testId="builder-title"
              />
              {draft.items.map((item, index) => (
                <ItemEditor
                  key={item.linkId}
                  items={draft.items}
                  index={index}
                  onChange={(next) =>
                    setItems(draft.items.map((candidate, at) => (at === index ? next : candidate)))
                  }
                  onMove={(step) => setItems(moveItem(draft.items, index, step))}
                  onRemove={() =>
                    setItems(
                      draft.items
                        .filter((_, at) => at !== index)
                        .map((candidate) =>
                          candidate.condition?.question === item.linkId
                            ? { ...candidate, condition: null }
                            : candidate,
                        ),
                    )
                  }
                />
              ))}
              <Group gap="sm">
                <NativeSelect
                  aria-label={t('questionnaireBuilder.editor.newType')}
                  value={newType}
                  data={draftTypes
                    .filter((type) => type !== 'section')
                    .map((type) => ({ value: type, label: t(`questionnaireBuilder.types.${type}`) }))}
                  onChange={(event) => setNewType(event.currentTarget.value as DraftType)}
                />
                <Button
                  variant="light"
                  leftSection={<IconPlus size={16} />}
                  onClick={() => setItems([...draft.items, newItem(newType)])}
                >
                  {t('questionnaireBuilder.editor.addQuestion')}
                </Button>
                <Button variant="default" onClick={() => setItems([...draft.items, newItem('section')])}>
                  {t('questionnaireBuilder.editor.addSection')}
                </Button>
              </Group>
              {problems.length > 0 ? (
                <Alert
                  color="red"
                  variant="light"
                  title={t('questionnaireBuilder.editor.problemsTitle')}
                  data-testid="builder-problems"
                >
                  <Stack gap={4} component="ul" style={{ margin: 0, paddingLeft: 18 }}>
                    {problems.map((problem) => (
                      <li key={problem}>{problem}</li>
                    ))}
                  </Stack>
                </Alert>
              ) : null}
              <div className={classes.saveBar}>
                <Stack gap={6}>
                  <Group gap="sm" wrap="wrap">
                    <Button
                      onClick={() => void handlePublish()}
                      loading={publish.isPending}
                      disabled={!isDirty && detail !== null}
                    >
                      {t('questionnaireBuilder.editor.publish', { version: nextVersion })}
                    </Button>
                    {isPublished ? (
                      <Text size="sm" c="teal.8" role="status">
                        {t('questionnaireBuilder.editor.published', { version: detail?.version ?? 1 })}
                      </Text>
                    ) : isDirty ? (
                      <Text size="sm" c="gray.7">
                        {t('questionnaireBuilder.editor.unsaved')}
                      </Text>
                    ) : null}
                  </Group>
                  <Text size="sm" c="gray.7" data-testid="builder-version-note">
                    {t('questionnaireBuilder.editor.versionNote')}
                  </Text>
                </Stack>
              </div>
            </>
          )}
          {detail !== null ? <AssignmentsPanel questionnaire={detail} isClinic={isClinic} /> : null}
        </Stack>
        <div className={classes.previewColumn}>
          <PhonePreview questionnaire={questionnaire} Field={PreviewField} />
        </div>
      </div>
      <ConfirmDialog
        opened={blocker.state === 'blocked'}
        title={t('questionnaireBuilder.editor.leaveTitle')}
        confirmLabel={t('questionnaireBuilder.editor.leaveConfirm')}
        isDestructive
        onConfirm={() => blocker.proceed?.()}
        onCancel={() => blocker.reset?.()}
        testId="builder-leave-dialog"
      >
        {t('questionnaireBuilder.editor.leaveText')}
      </ConfirmDialog>
    </div>
  );
}
