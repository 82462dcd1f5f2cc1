import { type BuilderQuestionnaire, englishElement } from '@telemedicina/shared/questionnaire-builder';
import { maxValueExtensionUrl, minValueExtensionUrl } from '@telemedicina/shared/intake-logic';

/** The English words of an element (`_text`, `_display`, `_title`). */
export const english = englishElement;

/** A questionnaire body as the builder sends it: a yes/no, a number shown only after "yes", a choice. */
export function sampleQuestionnaire(options: { smokerText?: string } = {}): BuilderQuestionnaire {
  return {
    resourceType: 'Questionnaire',
    title: 'Antes de la consulta',
    _title: english('Before the visit'),
    item: [
      {
        linkId: 'habits',
        type: 'group',
        text: 'Hábitos',
        _text: english('Habits'),
        item: [
          {
            linkId: 'smoker',
            type: 'boolean',
            required: true,
            text: options.smokerText ?? '¿Fuma?',
            _text: english('Do you smoke?'),
          },
          {
            linkId: 'cigarettes',
            type: 'integer',
            text: '¿Cuántos cigarrillos al día?',
            _text: english('How many cigarettes a day?'),
            enableWhen: [{ question: 'smoker', operator: '=', answerBoolean: true }],
            extension: [
              { url: minValueExtensionUrl, valueInteger: 1 },
              { url: maxValueExtensionUrl, valueInteger: 100 },
            ],
          },
        ],
      },
      {
        linkId: 'mood',
        type: 'choice',
        text: '¿Cómo se siente hoy?',
        _text: english('How do you feel today?'),
        answerOption: [
          {
            valueCoding: {
              code: 'good',
              display: 'Bien',
              _display: english('Well'),
            },
          },
        ],
      },
    ],
  };
}
