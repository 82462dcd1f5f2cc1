import type { Questionnaire } from '@medplum/fhirtypes';
import { describe, expect, it } from 'vitest';
import { gad7Questionnaire, phq9Questionnaire } from './intake-instruments.js';
import {
  type AnswerMap,
  answersOf,
  enabledLinkIds,
  gad7Severity,
  itemText,
  maxValueExtensionUrl,
  minValueExtensionUrl,
  phq9Severity,
  responseItems,
  scoreInstrument,
  translation,
  validateAnswers,
} from './intake-logic.js';

/** Answers giving `points` to the first items until `total` is spent (each item 0–3). */
function answersSumming(prefix: string, count: number, total: number): AnswerMap {
  const answers: AnswerMap = {};
  let left = total;
  for (let index = 1; index <= count; index += 1) {
    const points = Math.min(3, left);
    left -= points;
    answers[`${prefix}-${index}`] = [{ valueCoding: { code: String(points) } }];
  }
  return answers;
}

describe('PHQ-9 scoring', () => {
  it.each([
    [0, 'minimal'],
    [4, 'minimal'],
    [5, 'mild'],
    [9, 'mild'],
    [10, 'moderate'],
    [14, 'moderate'],
    [15, 'moderatelySevere'],
    [19, 'moderatelySevere'],
    [20, 'severe'],
    [27, 'severe'],
  ] as const)('a total of %i is %s', (total, band) => {
    // Item 9 is the last one filled, so totals up to 24 leave it at 0.
    const result = scoreInstrument('phq9', phq9Questionnaire, answersSumming('phq9', 9, total));
    expect(result.score).toBe(total);
    expect(result.severity).toBe(band);
    expect(phq9Severity(total)).toBe(band);
    expect(result.answered).toBe(9);
  });

  it('flags item 9 answered above 0, whatever the total', () => {
    const answers = answersSumming('phq9', 9, 0);
    expect(scoreInstrument('phq9', phq9Questionnaire, answers).selfHarmFlag).toBe(false);
    for (const code of ['1', '2', '3']) {
      answers['phq9-9'] = [{ valueCoding: { code } }];
      const result = scoreInstrument('phq9', phq9Questionnaire, answers);
      expect(result.selfHarmFlag).toBe(true);
      expect(result.score).toBe(Number(code));
      expect(result.severity).toBe('minimal');
    }
  });

  it('counts a partial response as partial', () => {
    const result = scoreInstrument('phq9', phq9Questionnaire, { 'phq9-1': [{ valueCoding: { code: '3' } }] });
    expect(result).toMatchObject({ score: 3, answered: 1, itemCount: 9, selfHarmFlag: false });
  });
});

describe('GAD-7 scoring', () => {
  it.each([
    [0, 'minimal'],
    [4, 'minimal'],
    [5, 'mild'],
    [9, 'mild'],
    [10, 'moderate'],
    [14, 'moderate'],
    [15, 'severe'],
    [21, 'severe'],
  ] as const)('a total of %i is %s', (total, band) => {
    const result = scoreInstrument('gad7', gad7Questionnaire, answersSumming('gad7', 7, total));
    expect(result.score).toBe(total);
    expect(result.severity).toBe(band);
    expect(gad7Severity(total)).toBe(band);
    expect(result.selfHarmFlag).toBe(false);
  });
});

describe('the shipped wording', () => {
  it('has Spanish and English for every item', () => {
    const group = phq9Questionnaire.item?.[0];
    expect(itemText(group?.item?.[8] ?? { linkId: '', type: 'display' }, 'es')).toMatch(/mejor muerto/);
    expect(itemText(group?.item?.[8] ?? { linkId: '', type: 'display' }, 'en')).toMatch(/better off dead/);
    expect(JSON.stringify(phq9Questionnaire)).toContain('Más de la mitad de los días');
  });
});

const form: Questionnaire = {
  resourceType: 'Questionnaire',
  status: 'active',
  item: [
    {
      linkId: 'about',
      type: 'group',
      text: 'Sobre usted',
      item: [
        { linkId: 'name', type: 'string', text: 'Nombre', required: true },
        { linkId: 'notes', type: 'text', text: 'Notas' },
        { linkId: 'born', type: 'date', text: 'Fecha de nacimiento' },
        { linkId: 'smokes', type: 'boolean', text: '¿Fuma?', required: true },
        {
          linkId: 'cigarettes',
          type: 'integer',
          text: 'Cigarrillos al día',
          required: true,
          enableWhen: [{ question: 'smokes', operator: '=', answerBoolean: true }],
          extension: [
            { url: minValueExtensionUrl, valueInteger: 1 },
            { url: maxValueExtensionUrl, valueInteger: 100 },
          ],
        },
        {
          linkId: 'weight',
          type: 'decimal',
          text: 'Peso',
          extension: [
            { url: minValueExtensionUrl, valueDecimal: 1 },
            { url: maxValueExtensionUrl, valueDecimal: 400 },
          ],
        },
      ],
    },
    {
      linkId: 'pain',
      type: 'choice',
      text: 'Dolor',
      answerOption: [{ valueCoding: { code: 'head' } }, { valueCoding: { code: 'back' } }],
    },
    {
      linkId: 'areas',
      type: 'choice',
      repeats: true,
      text: 'Zonas',
      answerOption: [{ valueCoding: { code: 'a' } }, { valueCoding: { code: 'b' } }],
    },
    {
      linkId: 'painDetail',
      type: 'string',
      text: 'Detalle',
      enableWhen: [
        { question: 'pain', operator: '=', answerCoding: { code: 'head' } },
        { question: 'areas', operator: 'exists', answerBoolean: true },
      ],
      enableBehavior: 'any',
      required: true,
    },
    {
      linkId: 'chained',
      type: 'string',
      text: 'Solo si hay detalle',
      enableWhen: [{ question: 'painDetail', operator: 'exists', answerBoolean: true }],
    },
  ],
};

describe('enableWhen', () => {
  it('shows an item only when its condition holds', () => {
    expect(enabledLinkIds(form, {}).has('cigarettes')).toBe(false);
    expect(enabledLinkIds(form, { smokes: [{ valueBoolean: false }] }).has('cigarettes')).toBe(false);
    expect(enabledLinkIds(form, { smokes: [{ valueBoolean: true }] }).has('cigarettes')).toBe(true);
  });

  it('takes any of several conditions with enableBehavior any', () => {
    expect(enabledLinkIds(form, {}).has('painDetail')).toBe(false);
    expect(enabledLinkIds(form, { pain: [{ valueCoding: { code: 'back' } }] }).has('painDetail')).toBe(false);
    expect(enabledLinkIds(form, { pain: [{ valueCoding: { code: 'head' } }] }).has('painDetail')).toBe(true);
    expect(enabledLinkIds(form, { areas: [{ valueCoding: { code: 'b' } }] }).has('painDetail')).toBe(true);
  });

  it('hides an item whose condition rests on a hidden item', () => {
    const answers: AnswerMap = { painDetail: [{ valueString: 'x' }] };
    expect(enabledLinkIds(form, answers).has('chained')).toBe(false);
    answers.pain = [{ valueCoding: { code: 'head' } }];
    expect(enabledLinkIds(form, answers).has('chained')).toBe(true);
  });

  it('opens the instruments’ difficulty question only after a problem above 0', () => {
    const none = answersSumming('phq9', 9, 0);
    expect(enabledLinkIds(phq9Questionnaire, none).has('phq9-difficulty')).toBe(false);
    none['phq9-4'] = [{ valueCoding: { code: '1' } }];
    expect(enabledLinkIds(phq9Questionnaire, none).has('phq9-difficulty')).toBe(true);
  });
});

describe('validation of answers against the version', () => {
  const complete: AnswerMap = { name: [{ valueString: 'Ana' }], smokes: [{ valueBoolean: false }] };

  it('accepts a complete response', () => {
    expect(validateAnswers(form, complete, { requireComplete: true })).toEqual([]);
  });

  it('names required items left out, only when enabled and only on submit', () => {
    expect(validateAnswers(form, {}, { requireComplete: true })).toEqual([
      { linkId: 'name', problem: 'required' },
      { linkId: 'smokes', problem: 'required' },
    ]);
    expect(validateAnswers(form, {}, { requireComplete: false })).toEqual([]);
    expect(
      validateAnswers(form, { ...complete, smokes: [{ valueBoolean: true }] }, { requireComplete: true }),
    ).toEqual([{ linkId: 'cigarettes', problem: 'required' }]);
  });

  it('refuses wrong types', () => {
    const cases: AnswerMap = {
      name: [{ valueInteger: 3 }],
      smokes: [{ valueString: 'yes' }],
      weight: [{ valueString: '70' }],
      born: [{ valueDate: '2020-02-30' }],
      pain: [{ valueString: 'head' }],
    };
    expect(validateAnswers(form, cases, { requireComplete: false })).toEqual(
      Object.keys(cases).map((linkId) => ({ linkId, problem: 'wrongType' })),
    );
    expect(
      validateAnswers(form, { name: [{ valueString: 'a', valueInteger: 1 }] }, { requireComplete: false }),
    ).toEqual([{ linkId: 'name', problem: 'wrongType' }]);
  });

  it('refuses unknown items, groups and codes that are not options', () => {
    expect(
      validateAnswers(
        form,
        {
          nope: [{ valueString: 'x' }],
          about: [{ valueString: 'x' }],
          pain: [{ valueCoding: { code: 'knee' } }],
        },
        { requireComplete: false },
      ),
    ).toEqual([
      { linkId: 'nope', problem: 'unknownItem' },
      { linkId: 'about', problem: 'unknownItem' },
      { linkId: 'pain', problem: 'notAnOption' },
    ]);
  });

  it('takes several answers only where the item repeats', () => {
    const two = [{ valueCoding: { code: 'head' } }, { valueCoding: { code: 'back' } }];
    expect(validateAnswers(form, { pain: two }, { requireComplete: false })).toEqual([
      { linkId: 'pain', problem: 'tooMany' },
    ]);
    expect(
      validateAnswers(
        form,
        { areas: [{ valueCoding: { code: 'a' } }, { valueCoding: { code: 'b' } }] },
        { requireComplete: false },
      ),
    ).toEqual([]);
  });

  it('refuses numbers out of range, naming the bound', () => {
    const smoker = { smokes: [{ valueBoolean: true }] };
    expect(
      validateAnswers(form, { ...smoker, cigarettes: [{ valueInteger: 0 }] }, { requireComplete: false }),
    ).toEqual([{ linkId: 'cigarettes', problem: 'belowMin', limit: 1 }]);
    expect(
      validateAnswers(form, { ...smoker, cigarettes: [{ valueInteger: 101 }] }, { requireComplete: false }),
    ).toEqual([{ linkId: 'cigarettes', problem: 'aboveMax', limit: 100 }]);
    expect(validateAnswers(form, { weight: [{ valueDecimal: 400.5 }] }, { requireComplete: false })).toEqual([
      { linkId: 'weight', problem: 'aboveMax', limit: 400 },
    ]);
    expect(validateAnswers(form, { weight: [{ valueDecimal: 72.5 }] }, { requireComplete: false })).toEqual(
      [],
    );
  });

  it('refuses an answer to an item its conditions hide', () => {
    expect(validateAnswers(form, { cigarettes: [{ valueInteger: 5 }] }, { requireComplete: false })).toEqual([
      { linkId: 'cigarettes', problem: 'notEnabled' },
    ]);
  });
});

describe('the response tree', () => {
  it('nests answers under their groups and reads them back', () => {
    const answers: AnswerMap = { name: [{ valueString: 'Ana' }], pain: [{ valueCoding: { code: 'head' } }] };
    const items = responseItems(form, answers);
    expect(items.map((item) => item.linkId)).toEqual(['about', 'pain']);
    expect(items[0]?.item?.[0]).toMatchObject({ linkId: 'name', answer: [{ valueString: 'Ana' }] });
    expect(answersOf({ item: items })).toEqual(answers);
  });

  it('reads translations', () => {
    const item = {
      linkId: 'x',
      type: 'string' as const,
      text: 'Hola',
      _text: { extension: [translation('en', 'Hello')] },
    };
    expect(itemText(item, 'en')).toBe('Hello');
    expect(itemText(item, 'es')).toBe('Hola');
  });
});
