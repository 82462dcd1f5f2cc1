import '@mantine/core/styles/Anchor.layer.css';
import { Alert, Anchor, Button, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import type { QuestionnaireItem } from '@medplum/fhirtypes';
import type { IntakeProblem } from '@telemedicina/shared/intake';
import {
  type AnswerMap,
  type AnswerValue,
  answersOf,
  codingText,
  enabledLinkIds,
  itemText,
  textIn,
  unitOf,
} from '@telemedicina/shared/intake-logic';
import { useQueryClient } from '@tanstack/react-query';
import { IconArrowLeft, IconCircleCheck } from '@tabler/icons-react';
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import pageClasses from '../../../components/section-page/SectionPage.module.css';
import { useApiErrorText } from '../../../lib/error-text';
import { queryKeys } from '../../../lib/query-keys';
import { useMe } from '../../../lib/session';
import { useLanguage } from '../../../lib/ui-state';
import { useClock } from '../../../lib/use-clock';
import {
  type IntakeResponseView,
  problemsOf,
  saveAnswers,
  submitAnswers,
  useIntakeResponse,
} from '../api/intake';
import { ItemField, type Language } from './IntakeItemField';
import { IntakeScore } from './IntakeScoreBadges';
import { formatDateAnswer } from './reader-answers';

/** How long after the last change the answers are saved. */
const autosaveDelayMs = 700;

type SaveState = 'idle' | 'saving' | 'saved' | 'error';

/** Only the answers of items the other answers leave enabled (the server refuses the rest). */
function enabledAnswers(view: IntakeResponseView, answers: AnswerMap): AnswerMap {
  const enabled = enabledLinkIds(view.questionnaire, answers);
  return Object.fromEntries(
    Object.entries(answers).filter(([linkId, given]) => enabled.has(linkId) && given.length > 0),
  );
}

/**
 * `/portal/intake/:id` (and `/admin/intake/:id`): one intake form. The patient answers it on one
 * scrolling page (a phone scrolls; the forms are short and sections are headed), answers saved as
 * they go and shown again when the page is reopened; "Send" checks everything and says which
 * question needs what. Their clinicians, and the patient once sent, see the answers and the score.
 */
export function IntakeFormPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const response = useIntakeResponse(id);
  const me = useMe().data;
  const errorText = useApiErrorText();
  const view = response.data;
  return (
    <div className={pageClasses.page} data-testid="intake-page">
      <Stack gap="md" maw={720}>
        {view ? (
          <Anchor
            component={Link}
            to={`/admin/appointments/${encodeURIComponent(view.appointmentId)}`}
            size="sm"
          >
            <Group gap={4} component="span">
              <IconArrowLeft size={16} />
              {t('intake.backToAppointment')}
            </Group>
          </Anchor>
        ) : null}
        {response.isPending ? (
          <Loader />
        ) : response.isError ? (
          <Alert color="red" variant="light" data-testid="intake-error">
            {errorText(response.error)}
          </Alert>
        ) : view ? (
          view.status === 'in-progress' && me?.user.id === view.patientId ? (
            <IntakeForm key={view.id} view={view} />
          ) : (
            <IntakeAnswers view={view} isOwn={me?.user.id === view.patientId} />
          )
        ) : null}
      </Stack>
    </div>
  );
}

function FormTitle({ view }: { view: IntakeResponseView }) {
  const language = useLanguage() === 'en' ? 'en' : 'es';
  return (
    <Title order={1} className={pageClasses.title} data-testid="intake-title">
      {view.title[language]}
    </Title>
  );
}

function IntakeForm({ view }: { view: IntakeResponseView }) {
  const { t } = useTranslation();
  const language: Language = useLanguage() === 'en' ? 'en' : 'es';
  const queryClient = useQueryClient();
  const errorText = useApiErrorText();
  const [answers, setAnswers] = useState<AnswerMap>(() => answersOf(view.response));
  const [saveState, setSaveState] = useState<SaveState>('idle');
  const [problems, setProblems] = useState<IntakeProblem[]>([]);
  const [submitError, setSubmitError] = useState<string | null>(null);
  const [isSubmitting, setIsSubmitting] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const latest = useRef(answers);
  const enabled = useMemo(() => enabledLinkIds(view.questionnaire, answers), [view.questionnaire, answers]);

  const save = useCallback(async () => {
    timer.current = null;
    setSaveState('saving');
    try {
      await saveAnswers(view.id, enabledAnswers(view, latest.current));
      setSaveState('saved');
      setProblems([]);
    } catch (error) {
      setSaveState('error');
      setProblems(problemsOf(error) ?? []);
    }
  }, [view]);

  // A change pending when the page goes away is sent at once.
  useEffect(() => {
    const flush = () => {
      if (timer.current !== null) {
        clearTimeout(timer.current);
        void save();
      }
    };
    window.addEventListener('pagehide', flush);
    return () => {
      window.removeEventListener('pagehide', flush);
      flush();
    };
  }, [save]);

  const change = (linkId: string, given: AnswerValue[]) => {
    const next = { ...latest.current, [linkId]: given };
    latest.current = next;
    setAnswers(next);
    setSaveState('idle');
    if (timer.current !== null) {
      clearTimeout(timer.current);
    }
    timer.current = setTimeout(() => void save(), autosaveDelayMs);
  };

  const submit = async () => {
    if (timer.current !== null) {
      clearTimeout(timer.current);
      timer.current = null;
    }
    setIsSubmitting(true);
    setSubmitError(null);
    try {
      const sent = await submitAnswers(view.id, enabledAnswers(view, latest.current));
      queryClient.setQueryData(queryKeys.intakeResponse(view.id), sent);
      void queryClient.invalidateQueries({
        queryKey: queryKeys.appointments.intakeForms(view.appointmentId),
      });
      setProblems([]);
    } catch (error) {
      const found = problemsOf(error);
      setProblems(found ?? []);
      setSubmitError(found === null ? errorText(error) : null);
    } finally {
      setIsSubmitting(false);
    }
  };

  const problemOf = (linkId: string) => {
    const problem = problems.find((candidate) => candidate.linkId === linkId);
    return problem === undefined
      ? null
      : t(`intake.problems.${problem.problem}`, { limit: problem.limit ?? '' });
  };

  const renderItems = (items: readonly QuestionnaireItem[] | undefined, depth: number) =>
    (items ?? []).map((item) => {
      if (!enabled.has(item.linkId)) {
        return null;
      }
      if (item.type === 'group') {
        return (
          <Stack key={item.linkId} gap="md" component="section" data-testid="intake-section-group">
            <Title order={depth === 0 ? 2 : 3} size="h4">
              {itemText(item, language)}
            </Title>
            {renderItems(item.item, depth + 1)}
          </Stack>
        );
      }
      if (item.type === 'display') {
        return (
          <Text key={item.linkId} size="sm">
            {itemText(item, language)}
          </Text>
        );
      }
      return (
        <ItemField
          key={item.linkId}
          item={item}
          language={language}
          value={answers[item.linkId] ?? []}
          error={problemOf(item.linkId)}
          onChange={(given) => change(item.linkId, given)}
        />
      );
    });

  return (
    <Stack gap="lg">
      <FormTitle view={view} />
      <Text size="sm" c="gray.7">
        {t('intake.intro')}
      </Text>
      <Paper withBorder radius="md" p="md">
        <Stack gap="lg">{renderItems(view.questionnaire.item, 0)}</Stack>
      </Paper>
      {problems.length > 0 ? (
        <Alert color="red" variant="light" title={t('intake.problemsTitle')} data-testid="intake-problems">
          <Stack gap={4}>
            {problems.map((problem) => (
              <Text key={`${problem.linkId}-${problem.problem}`} size="sm">
                {problem.itemText === '' ? '' : `${problem.itemText}: `}
                {t(`intake.problems.${problem.problem}`, { limit: problem.limit ?? '' })}
              </Text>
            ))}
          </Stack>
        </Alert>
      ) : null}
      {submitError !== null ? (
        <Alert color="red" variant="light">
          {submitError}
        </Alert>
      ) : null}
      <Group justify="space-between" gap="sm">
        <Text
          size="sm"
          c={saveState === 'error' ? 'red.8' : 'gray.7'}
          aria-live="polite"
          data-testid="intake-save-state"
          data-state={saveState}
        >
          {saveState === 'idle' ? '' : t(`intake.save.${saveState}`)}
        </Text>
        <Button onClick={() => void submit()} loading={isSubmitting} size="md" data-testid="intake-submit">
          {t('intake.submit')}
        </Button>
      </Group>
    </Stack>
  );
}

/** The answers as read by a clinician (or the patient once sent): question, answer, and the score. */
function IntakeAnswers({ view, isOwn }: { view: IntakeResponseView; isOwn: boolean }) {
  const { t } = useTranslation();
  const clock = useClock();
  const language: Language = useLanguage() === 'en' ? 'en' : 'es';
  const answers = answersOf(view.response);
  const describe = (item: QuestionnaireItem, given: AnswerValue[]): string =>
    given
      .map((answer) => {
        if (answer.valueCoding) {
          const option = item.answerOption?.find(
            (candidate) => candidate.valueCoding?.code === answer.valueCoding?.code,
          );
          return option?.valueCoding
            ? codingText(option.valueCoding, language)
            : (answer.valueCoding.code ?? '');
        }
        if (answer.valueBoolean !== undefined) {
          return answer.valueBoolean ? t('intake.yes') : t('intake.no');
        }
        const number = answer.valueInteger ?? answer.valueDecimal;
        if (number !== undefined) {
          const unit = unitOf(item);
          return unit ? `${number} ${unit.display ?? unit.code ?? ''}` : String(number);
        }
        if (answer.valueDate !== undefined) {
          return formatDateAnswer(answer.valueDate, language);
        }
        return answer.valueString ?? '';
      })
      .join(', ');
  const renderItems = (items: readonly QuestionnaireItem[] | undefined): ReactNode =>
    (items ?? []).map((item) => {
      if (item.type === 'group') {
        return (
          <Stack key={item.linkId} gap="sm" component="section">
            <Title order={2} size="h5">
              {itemText(item, language)}
            </Title>
            {renderItems(item.item)}
          </Stack>
        );
      }
      const given = answers[item.linkId];
      if (given === undefined) {
        return null;
      }
      return (
        <Stack key={item.linkId} gap={2} data-testid="intake-answer" data-linkid={item.linkId}>
          <Text size="sm" c="gray.7">
            {itemText(item, language)}
          </Text>
          <Text fw={600}>{describe(item, given)}</Text>
        </Stack>
      );
    });
  return (
    <Stack gap="md">
      <FormTitle view={view} />
      {isOwn && view.status === 'completed' ? (
        <Alert
          color="teal"
          variant="light"
          icon={<IconCircleCheck size={20} />}
          title={t('intake.done.title')}
          data-testid="intake-done"
        >
          {t('intake.done.body')}
        </Alert>
      ) : null}
      {/* The score and the item-9 flag are for the clinicians; the patient sees their answers. */}
      {view.score !== null && !isOwn ? <IntakeScore score={view.score} /> : null}
      <Text size="sm" c="gray.7" data-testid="intake-answers-state">
        {view.completedAt !== null
          ? t('intake.chart.sentOn', { date: clock.dateTime(view.completedAt) })
          : t('intake.status.inProgress')}
        {' · '}
        {t('intake.version', { version: view.questionnaireVersion })}
      </Text>
      <Paper withBorder radius="md" p="md">
        <Stack gap="md">
          {Object.keys(answers).length === 0 ? (
            <Text c="gray.7">{t('intake.noAnswers')}</Text>
          ) : (
            renderItems(view.questionnaire.item)
          )}
        </Stack>
      </Paper>
      <Text size="xs" c="gray.6">
        {textIn(view.questionnaire.copyright, undefined, language)}
      </Text>
    </Stack>
  );
}
