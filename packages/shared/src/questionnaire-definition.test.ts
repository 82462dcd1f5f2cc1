import type { Questionnaire, QuestionnaireItem } from '@medplum/fhirtypes';
import { describe, expect, it } from 'vitest';
import { maxValueExtensionUrl, minValueExtensionUrl, translation } from './intake-logic.js';
import { builderQuestionnaireSchema } from './questionnaire-builder.js';
import { questionnaireDefinitionProblems } from './questionnaire-definition.js';

/** An item's fields, and `_text` (the English words), which the FHIR types leave out. */
type ItemFields = Partial<QuestionnaireItem> & { _text?: { extension?: unknown[] } | undefined };

function item(linkId: string, extra: ItemFields = {}): QuestionnaireItem {
  return {
    linkId,
    type: 'string',
    text: `Pregunta ${linkId}`,
    _text: { extension: [translation('en', `Question ${linkId}`)] },
    ...extra,
  };
}

function option(code: string) {
  return {
    valueCoding: {
      code,
      display: `Opción ${code}`,
      _display: { extension: [translation('en', `Option ${code}`)] },
    },
  };
}

function form(items: QuestionnaireItem[]): Questionnaire {
  return {
    resourceType: 'Questionnaire',
    status: 'active',
    title: 'Antes de la consulta',
    _title: { extension: [translation('en', 'Before the visit')] },
    item: items,
  } as Questionnaire;
}

describe('questionnaireDefinitionProblems', () => {
  it('accepts a questionnaire with sections, choices, ranges and a condition on an earlier item', () => {
    const questionnaire = form([
      item('s1', {
        type: 'group',
        item: [
          item('smoker', { type: 'boolean', required: true }),
          item('cigarettes', {
            type: 'integer',
            enableWhen: [{ question: 'smoker', operator: '=', answerBoolean: true }],
            extension: [
              { url: minValueExtensionUrl, valueInteger: 0 },
              { url: maxValueExtensionUrl, valueInteger: 100 },
            ],
          }),
        ],
      }),
      item('mood', { type: 'choice', answerOption: [option('good'), option('bad')] }),
    ]);
    expect(builderQuestionnaireSchema.safeParse(questionnaire).success).toBe(false); // status is not the builder's
    const { status: _status, ...body } = questionnaire;
    expect(builderQuestionnaireSchema.safeParse(body).success).toBe(true);
    expect(questionnaireDefinitionProblems(questionnaire)).toEqual([]);
  });

  it('names a condition on a later or an unknown item, duplicate linkIds, empty choices and min above max', () => {
    const problems = questionnaireDefinitionProblems(
      form([
        item('a', { enableWhen: [{ question: 'b', operator: 'exists', answerBoolean: true }] }),
        item('b', { enableWhen: [{ question: 'nowhere', operator: 'exists', answerBoolean: true }] }),
        item('b'),
        item('c', { type: 'choice', answerOption: [] }),
        item('d', {
          type: 'decimal',
          extension: [
            { url: minValueExtensionUrl, valueDecimal: 5 },
            { url: maxValueExtensionUrl, valueDecimal: 1 },
          ],
        }),
      ]),
    );
    expect(problems).toEqual([
      { linkId: 'b', problem: 'duplicateLinkId' },
      { linkId: 'a', problem: 'enableWhenLater' },
      { linkId: 'b', problem: 'enableWhenUnknown' },
      { linkId: 'c', problem: 'emptyChoices' },
      { linkId: 'd', problem: 'minAboveMax' },
    ]);
  });

  it('wants every word in Spanish and English', () => {
    const problems = questionnaireDefinitionProblems({
      title: 'Solo en español',
      item: [
        item('a', { _text: undefined }),
        item('b', { type: 'choice', answerOption: [{ valueCoding: { code: 'x', display: 'Equis' } }] }),
      ],
    });
    expect(problems).toEqual([
      { linkId: '', problem: 'missingTitle' },
      { linkId: 'a', problem: 'missingText' },
      { linkId: 'b', problem: 'missingOptionText' },
    ]);
  });
});
