import '@mantine/core/styles/Card.layer.css';
import { Alert, Anchor, Badge, Button, Card, Group, Loader, Stack, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import type { QuestionnaireSummary } from '@telemedicina/shared/questionnaire-builder';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { SectionForbidden } from '../../../components/section-page/SectionForbidden';
import { SectionHeader } from '../../../components/section-page/SectionHeader';
import pageClasses from '../../../components/section-page/SectionPage.module.css';
import { useHasAnyPermission, useLanguage } from '../../../lib/ui-state';
import { useQuestionnaires } from '../api/get-questionnaires';

/** Who reaches the builder: the clinic (settings.manage) and doctors (their own questionnaires). */
export const builderPermissions = ['settings.manage', 'doctors.profile.own'] as const;

/**
 * `/admin/questionnaires`: the questionnaires patients fill in before a visit — the clinic's, the
 * doctor's own and the shipped instruments (PHQ-9, GAD-7) — with their version, state and where
 * each is sent. A card opens the editor; "New questionnaire" starts one.
 */
export function QuestionnairesPage() {
  const { t } = useTranslation();
  const isAllowed = useHasAnyPermission(builderPermissions);
  return (
    <div className={pageClasses.page} data-testid="questionnaires-page">
      <SectionHeader title={t('admin.nav.questionnaires')} description={t('admin.sections.questionnaires')}>
        {isAllowed ? (
          <Button component={Link} to="/admin/questionnaires/new" leftSection={<IconPlus size={16} />}>
            {t('questionnaireBuilder.list.new')}
          </Button>
        ) : null}
      </SectionHeader>
      {isAllowed ? <QuestionnaireList /> : <SectionForbidden />}
    </div>
  );
}

function QuestionnaireList() {
  const { t } = useTranslation();
  const list = useQuestionnaires();
  if (list.isPending) {
    return <Loader aria-label={t('questionnaireBuilder.loading')} />;
  }
  if (list.isError) {
    return (
      <Alert color="red" variant="light">
        {t('questionnaireBuilder.list.loadError')}
      </Alert>
    );
  }
  return (
    <Stack gap="sm" component="ul" className={pageClasses.list}>
      {list.data.data.map((questionnaire) => (
        <QuestionnaireCard key={questionnaire.id} questionnaire={questionnaire} />
      ))}
    </Stack>
  );
}

/** Where a questionnaire is sent, in words ("Psiquiatría · Dra. Lucía Martínez"). */
export function assignmentWords(questionnaire: QuestionnaireSummary, language: 'es' | 'en'): string[] {
  return questionnaire.assignments.map(
    (assignment) => assignment.specialty?.name[language] ?? assignment.doctor?.name ?? '',
  );
}

function QuestionnaireCard({ questionnaire }: { questionnaire: QuestionnaireSummary }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const targets = assignmentWords(questionnaire, language);
  return (
    <Card component="li" withBorder radius="md" padding="md" data-testid="questionnaire-card">
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <Stack gap={6} style={{ flex: '1 1 280px', minWidth: 0 }}>
          <Anchor component={Link} to={`/admin/questionnaires/${questionnaire.id}`} fw={600} size="lg">
            {questionnaire.title[language]}
          </Anchor>
          <Group gap={6} wrap="wrap">
            <Badge variant="light" color={questionnaire.archived ? 'gray' : 'teal'}>
              {questionnaire.archived
                ? t('questionnaireBuilder.state.archived')
                : t('questionnaireBuilder.state.active')}
            </Badge>
            <Badge variant="outline" color="gray">
              {t('questionnaireBuilder.list.version', { version: questionnaire.version })}
            </Badge>
            {questionnaire.shipped ? (
              <Badge variant="light" color="indigo">
                {t('questionnaireBuilder.state.shipped')}
              </Badge>
            ) : null}
            {questionnaire.owner !== null ? (
              <Badge variant="light" color="grape">
                {t('questionnaireBuilder.state.ownedBy', { name: questionnaire.owner.name })}
              </Badge>
            ) : null}
          </Group>
          <Text size="sm" c="gray.7">
            {t('questionnaireBuilder.list.questions', { count: questionnaire.itemCount })}
            {' · '}
            {targets.length === 0
              ? t('questionnaireBuilder.list.notAssigned')
              : t('questionnaireBuilder.list.sentFor', { targets: targets.join(', ') })}
          </Text>
        </Stack>
        <Button
          component={Link}
          to={`/admin/questionnaires/${questionnaire.id}`}
          variant="default"
          aria-label={`${questionnaire.canEdit ? t('questionnaireBuilder.list.edit') : t('questionnaireBuilder.list.open')}: ${questionnaire.title[language]}`}
        >
          {questionnaire.canEdit ? t('questionnaireBuilder.list.edit') : t('questionnaireBuilder.list.open')}
        </Button>
      </Group>
    </Card>
  );
}
