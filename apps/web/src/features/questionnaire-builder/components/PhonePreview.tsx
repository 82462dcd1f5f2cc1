import '@mantine/core/styles/SegmentedControl.layer.css';
import { Paper, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import type { Questionnaire, QuestionnaireItem } from '@medplum/fhirtypes';
import {
  type AnswerMap,
  type AnswerValue,
  enabledLinkIds,
  flattenItems,
  itemText,
  textIn,
} from '@telemedicina/shared/intake-logic';
import type { BuilderQuestionnaire } from '@telemedicina/shared/questionnaire-builder';
import { type ComponentType, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import classes from './QuestionnaireBuilder.module.css';

/** The patient's question field (the intake form's), handed in by the route that composes the builder. */
export interface PreviewFieldProps {
  item: QuestionnaireItem;
  language: 'es' | 'en';
  value: AnswerValue[];
  error: string | null;
  onChange: (given: AnswerValue[]) => void;
}
export type PreviewField = ComponentType<PreviewFieldProps>;

/** An item not yet written is shown by its place ("Pregunta 2"), as the editor names it. */
function withWords(
  item: QuestionnaireItem,
  number: number,
  language: 'es' | 'en',
  t: (key: 'questionnaireBuilder.item.untitled', options: { number: number }) => string,
): QuestionnaireItem {
  if (itemText(item, language).trim() !== '') {
    return item;
  }
  const { _text: _unused, ...rest } = item as QuestionnaireItem & { _text?: unknown };
  return { ...rest, text: t('questionnaireBuilder.item.untitled', { number }) };
}

/**
 * The questionnaire as the patient will see it on a phone (a 390 px frame), in the language chosen
 * here, with the patient's own fields: answering in the preview shows and hides the conditional
 * questions as it will for the patient. Nothing is saved.
 */
export function PhonePreview({
  questionnaire,
  Field,
}: {
  questionnaire: BuilderQuestionnaire;
  Field: PreviewField;
}) {
  const { t, i18n } = useTranslation();
  const [language, setLanguage] = useState<'es' | 'en'>(i18n.language === 'en' ? 'en' : 'es');
  const [answers, setAnswers] = useState<AnswerMap>({});
  const resource = questionnaire as unknown as Questionnaire;
  const enabled = useMemo(() => enabledLinkIds(resource, answers), [resource, answers]);
  const title = textIn(
    resource.title,
    (resource as { _title?: Parameters<typeof textIn>[1] })._title,
    language,
  );

  const all = flattenItems(resource.item);
  const position = (item: QuestionnaireItem) => all.indexOf(item) + 1;

  const render = (items: readonly QuestionnaireItem[] | undefined) =>
    (items ?? []).map((item) => {
      if (!enabled.has(item.linkId)) {
        return null;
      }
      if (item.type === 'group') {
        return (
          <Stack key={item.linkId} gap="md" component="section">
            <Title order={3} size="h5">
              {itemText(item, language).trim() ||
                t('questionnaireBuilder.item.untitled', { number: position(item) })}
            </Title>
            {render(item.item)}
          </Stack>
        );
      }
      return (
        <Field
          key={`${language}-${item.linkId}-${item.type}`}
          item={withWords(item, position(item), language, t)}
          language={language}
          value={answers[item.linkId] ?? []}
          error={null}
          onChange={(given) => setAnswers((previous) => ({ ...previous, [item.linkId]: given }))}
        />
      );
    });

  return (
    <Stack gap="sm" data-testid="builder-preview">
      <Text fw={600}>{t('questionnaireBuilder.preview.title')}</Text>
      <SegmentedControl
        aria-label={t('questionnaireBuilder.preview.language')}
        value={language}
        onChange={(next) => setLanguage(next === 'en' ? 'en' : 'es')}
        data={[
          { value: 'es', label: t('questionnaireBuilder.preview.es') },
          { value: 'en', label: t('questionnaireBuilder.preview.en') },
        ]}
      />
      <div className={classes.phone} lang={language} data-testid="builder-phone">
        <Stack gap="lg" p="md">
          <Title order={2} size="h3">
            {title.trim() || t('questionnaireBuilder.preview.noTitle')}
          </Title>
          <Paper withBorder radius="md" p="md">
            <Stack gap="lg">{render(resource.item)}</Stack>
          </Paper>
        </Stack>
      </div>
      <Text size="xs" c="gray.7">
        {t('questionnaireBuilder.preview.hint')}
      </Text>
    </Stack>
  );
}
