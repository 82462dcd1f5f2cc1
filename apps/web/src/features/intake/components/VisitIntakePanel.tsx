import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/Paper.layer.css';
import { Alert, Badge, Button, Center, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import type { IntakeFormSummary } from '@telemedicina/shared/intake';
import { IconNotes } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { escapeHtml, insertIntoNote } from '../../../lib/note-insert';
import { useLanguage } from '../../../lib/ui-state';
import { useClock } from '../../../lib/use-clock';
import { type IntakeResponseView, useAppointmentForms, useIntakeResponse } from '../api/intake';
import { IntakeScore } from './IntakeScoreBadges';
import { readerAnswers } from './reader-answers';

type Language = 'es' | 'en';

/** The readable summary put into the note: title and date, score and band, the flag, each answer. */
export function intakeNoteHtml(
  detail: IntakeResponseView,
  language: Language,
  t: TFunction,
  sentOn: string,
): string {
  const lines = readerAnswers(detail.questionnaire, detail.response, language);
  const parts = [`<p><strong>${escapeHtml(`${detail.title[language]} · ${sentOn}`)}</strong></p>`];
  if (detail.score !== null) {
    const score = t('intake.visitPanel.scoreLine', {
      instrument: t(`intake.instruments.${detail.score.instrument}`),
      score: detail.score.score,
      max: detail.score.instrument === 'phq9' ? 27 : 21,
      severity: t(`intake.severity.${detail.score.severity}`),
    });
    parts.push(`<p>${escapeHtml(score)}</p>`);
    if (detail.score.selfHarmFlag) {
      parts.push(`<p><strong>${escapeHtml(t('intake.selfHarmFlag'))}</strong></p>`);
    }
  }
  if (lines.length > 0) {
    parts.push(
      `<ul>${lines.map((line) => `<li><p>${escapeHtml(`${line.question}: ${line.answer}`)}</p></li>`).join('')}</ul>`,
    );
  }
  return parts.join('');
}

function SentForm({
  form,
  appointmentId,
  onInserted,
}: {
  form: IntakeFormSummary;
  appointmentId: string;
  onInserted?: () => void;
}) {
  const { t } = useTranslation();
  const clock = useClock();
  const language: Language = useLanguage() === 'en' ? 'en' : 'es';
  const detail = useIntakeResponse(form.id);
  const sentOn =
    form.completedAt === null ? '' : t('intake.chart.sentOn', { date: clock.dateTime(form.completedAt) });
  if (detail.isPending) {
    return (
      <Center py="sm">
        <Loader size="sm" aria-label={t('intake.visitPanel.loading')} />
      </Center>
    );
  }
  if (detail.isError) {
    return (
      <Text size="sm" c="red.8">
        {t('intake.visitPanel.loadError')}
      </Text>
    );
  }
  const lines = readerAnswers(detail.data.questionnaire, detail.data.response, language);
  const handleInsert = () => {
    insertIntoNote(appointmentId, intakeNoteHtml(detail.data, language, t, sentOn));
    onInserted?.();
  };
  return (
    <Stack gap="xs">
      <Text size="sm" c="gray.7">
        {sentOn}
      </Text>
      {form.score !== null ? <IntakeScore score={form.score} /> : null}
      <Stack gap={4} component="dl" m={0} data-testid="visit-intake-answers">
        {lines.map((line) => (
          <div key={line.linkId}>
            <Text component="dt" size="sm" c="gray.7">
              {line.question}
            </Text>
            <Text component="dd" size="sm" fw={600} m={0}>
              {line.answer}
            </Text>
          </div>
        ))}
      </Stack>
      <Group>
        <Button
          size="xs"
          variant="light"
          leftSection={<IconNotes size={16} />}
          onClick={handleInsert}
          data-testid="visit-intake-insert"
        >
          {t('intake.visitPanel.insert')}
        </Button>
      </Group>
    </Stack>
  );
}

/**
 * Beside the call, next to the note: this visit's forms with the answers and scores (and the
 * PHQ-9 item-9 flag), forms not sent yet said as such, and a button that puts a readable summary
 * of the answers into the note (at the cursor, or at the end of Subjective).
 */
export function VisitIntakePanel({
  appointmentId,
  onInserted,
}: {
  appointmentId: string;
  /** After the answers went into the note (the page shows the note). */
  onInserted?: () => void;
}) {
  const { t } = useTranslation();
  const language: Language = useLanguage() === 'en' ? 'en' : 'es';
  const forms = useAppointmentForms(appointmentId);
  if (forms.isPending) {
    return (
      <Center py="xl">
        <Loader aria-label={t('intake.visitPanel.loading')} />
      </Center>
    );
  }
  if (forms.isError) {
    return (
      <Alert color="red" variant="light">
        {t('intake.visitPanel.loadError')}
      </Alert>
    );
  }
  if (forms.data.length === 0) {
    return (
      <Text size="sm" c="gray.7" data-testid="visit-intake-none">
        {t('intake.visitPanel.none')}
      </Text>
    );
  }
  return (
    <Stack gap="sm" data-testid="visit-intake-panel">
      {forms.data.map((form) => (
        <Paper
          key={form.id}
          withBorder
          radius="md"
          p="sm"
          data-testid="visit-intake-form"
          data-status={form.status}
        >
          <Stack gap="xs">
            <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
              <Text fw={700} size="sm">
                {form.title[language]}
              </Text>
              <Badge
                variant="light"
                color={form.status === 'completed' ? 'teal' : 'gray'}
                style={{ textTransform: 'none', flexShrink: 0 }}
              >
                {t(`intake.status.${form.status === 'completed' ? 'completed' : 'inProgress'}`)}
              </Badge>
            </Group>
            {form.status === 'completed' ? (
              <SentForm form={form} appointmentId={appointmentId} onInserted={onInserted} />
            ) : (
              <Text size="sm" c="gray.7" data-testid="visit-intake-not-answered">
                {t('intake.visitPanel.notAnswered')}
              </Text>
            )}
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}

/** The tab's label: "Formularios", with how many forms the visit has. */
export function VisitIntakeTabLabel({ appointmentId }: { appointmentId: string }) {
  const { t } = useTranslation();
  const forms = useAppointmentForms(appointmentId);
  const flagged = (forms.data ?? []).some((form) => form.score?.selfHarmFlag === true);
  return (
    <Group gap={6} wrap="nowrap" component="span">
      {t('intake.visitPanel.tab')}
      {forms.data !== undefined && forms.data.length > 0 ? (
        <Badge size="sm" circle variant={flagged ? 'filled' : 'light'} color={flagged ? 'red' : 'gray'}>
          {forms.data.length}
        </Badge>
      ) : null}
    </Group>
  );
}
