import { describe, expect, it } from 'vitest';
import { shippedInstruments } from './intake-instruments.js';
import { readableAnswers } from './intake-summary.js';

describe('readableAnswers', () => {
  it('words the PHQ-9 answers in the reader language, in the questionnaire order, skipping unanswered items', () => {
    const response = {
      item: [
        { linkId: 'phq9-2', answer: [{ valueCoding: { code: '3' } }] },
        { linkId: 'phq9-1', answer: [{ valueCoding: { code: '1' } }] },
      ],
    };
    const es = readableAnswers(shippedInstruments.phq9, response, 'es');
    expect(es.map((line) => line.linkId)).toEqual(['phq9-1', 'phq9-2']);
    expect(es[0]?.question).toMatch(/interés/i);
    expect(es[0]?.answer).toMatch(/varios días/i);
    const en = readableAnswers(shippedInstruments.phq9, response, 'en');
    expect(en[0]).toMatchObject({
      question: 'Little interest or pleasure in doing things',
      answer: 'Several days',
    });
    expect(en[1]?.answer).toBe('Nearly every day');
  });

  it('says yes/no and numbers with their unit', () => {
    const questionnaire = {
      item: [
        { linkId: 'smoke', type: 'boolean' as const, text: 'Do you smoke?' },
        {
          linkId: 'weight',
          type: 'decimal' as const,
          text: 'Weight',
          extension: [
            {
              url: 'http://hl7.org/fhir/StructureDefinition/questionnaire-unit',
              valueCoding: { code: 'kg', display: 'kg' },
            },
          ],
        },
      ],
    };
    const response = {
      item: [
        { linkId: 'smoke', answer: [{ valueBoolean: false }] },
        { linkId: 'weight', answer: [{ valueDecimal: 71.5 }] },
      ],
    };
    expect(readableAnswers(questionnaire, response, 'es').map((line) => line.answer)).toEqual([
      'No',
      '71.5 kg',
    ]);
    expect(readableAnswers(questionnaire, { item: [response.item[0]!] }, 'en')[0]?.answer).toBe('No');
  });
});
