import type { Questionnaire } from '@medplum/fhirtypes';
import { enabledLinkIds } from '@telemedicina/shared/intake-logic';
import { builderQuestionnaireSchema } from '@telemedicina/shared/questionnaire-builder';
import { questionnaireDefinitionProblems } from '@telemedicina/shared/questionnaire-definition';
import { describe, expect, it } from 'vitest';
import { type Draft, fromQuestionnaire, moveItem, newItem, toQuestionnaire } from './draft';

function sample(): Draft {
  const section = { ...newItem('section'), linkId: 's1', es: 'Hábitos', en: 'Habits' };
  const smoker = {
    ...newItem('boolean'),
    linkId: 'smoker',
    es: '¿Fuma?',
    en: 'Do you smoke?',
    required: true,
  };
  const cigarettes = {
    ...newItem('integer'),
    linkId: 'cigs',
    es: 'Cigarrillos al día',
    en: 'Cigarettes a day',
    unitEs: 'cigarrillos',
    unitEn: 'cigarettes',
    min: 1,
    max: 80,
    condition: { question: 'smoker', operator: '=' as const, answer: 'true' },
  };
  const pain = { ...newItem('scale'), linkId: 'pain', es: 'Dolor', en: 'Pain' };
  const symptoms = {
    ...newItem('multipleChoice'),
    linkId: 'symptoms',
    es: 'Síntomas',
    en: 'Symptoms',
    options: [
      { code: 'cough', es: 'Tos', en: 'Cough' },
      { code: 'fever', es: 'Fiebre', en: 'Fever' },
    ],
  };
  return {
    titleEs: 'Antes de la consulta',
    titleEn: 'Before the visit',
    items: [pain, section, smoker, cigarettes, symptoms],
  };
}

describe('the builder draft', () => {
  it('writes a Questionnaire the contract accepts, with sections, units, ranges, a scale and a condition', () => {
    const questionnaire = toQuestionnaire(sample());
    expect(builderQuestionnaireSchema.safeParse(questionnaire).success).toBe(true);
    expect(questionnaireDefinitionProblems(questionnaire)).toEqual([]);
    expect(questionnaire.item.map((item) => item.linkId)).toEqual(['pain', 's1']);
    expect(questionnaire.item[1]?.item?.map((item) => item.linkId)).toEqual(['smoker', 'cigs', 'symptoms']);
    const resource = questionnaire as unknown as Questionnaire;
    expect([...enabledLinkIds(resource, {})]).not.toContain('cigs');
    expect([...enabledLinkIds(resource, { smoker: [{ valueBoolean: true }] })]).toContain('cigs');
  });

  it('reads a published version back to the same draft', () => {
    const draft = sample();
    expect(fromQuestionnaire(toQuestionnaire(draft) as unknown as Questionnaire)).toEqual(draft);
  });

  it('moves items up and down, and not past either end', () => {
    const items = sample().items;
    expect(moveItem(items, 1, 1).map((item) => item.linkId)).toEqual([
      'pain',
      'smoker',
      's1',
      'cigs',
      'symptoms',
    ]);
    expect(moveItem(items, 0, -1).map((item) => item.linkId)).toEqual(items.map((item) => item.linkId));
  });
});
