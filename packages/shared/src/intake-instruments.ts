import type { Questionnaire, QuestionnaireItem } from '@medplum/fhirtypes';
import { type Instrument, ordinalValueExtensionUrl, translation } from './intake-logic.js';

/*
 * The scored instruments every clinic gets: PHQ-9 and GAD-7, released free of copyright by Pfizer
 * (no permission needed to reproduce, translate, display or distribute). Standard wording in
 * Spanish (the US Spanish version, answer options as the clinic asked: "Nunca / Varios días / Más de
 * la mitad de los días / Casi todos los días") and English. FHIR R4 Questionnaires: Spanish in
 * `text`, English in the translation extension on `_text`; each option's points in `ordinalValue`.
 */

const frequencyOptions: Array<{ code: string; es: string; en: string }> = [
  { code: '0', es: 'Nunca', en: 'Not at all' },
  { code: '1', es: 'Varios días', en: 'Several days' },
  { code: '2', es: 'Más de la mitad de los días', en: 'More than half the days' },
  { code: '3', es: 'Casi todos los días', en: 'Nearly every day' },
];

const difficultyOptions: Array<{ code: string; es: string; en: string }> = [
  { code: 'none', es: 'Nada difícil', en: 'Not difficult at all' },
  { code: 'somewhat', es: 'Algo difícil', en: 'Somewhat difficult' },
  { code: 'very', es: 'Muy difícil', en: 'Very difficult' },
  { code: 'extremely', es: 'Extremadamente difícil', en: 'Extremely difficult' },
];

const optionSystem = 'urn:telemedicina:intake:frequency';

function scoredItem(linkId: string, es: string, en: string): QuestionnaireItem {
  return {
    linkId,
    type: 'choice',
    required: true,
    text: es,
    _text: { extension: [translation('en', en)] },
    answerOption: frequencyOptions.map((option) => ({
      valueCoding: {
        system: optionSystem,
        code: option.code,
        display: option.es,
        _display: { extension: [translation('en', option.en)] },
        extension: [{ url: ordinalValueExtensionUrl, valueDecimal: Number(option.code) }],
      },
    })),
  } as QuestionnaireItem;
}

/** The closing question of both instruments, shown only when some problem was marked above 0. */
function difficultyItem(prefix: string, linkIds: readonly string[]): QuestionnaireItem {
  return {
    linkId: `${prefix}-difficulty`,
    type: 'choice',
    required: false,
    text: 'Si marcó cualquiera de los problemas, ¿qué tanta dificultad le han dado estos problemas para hacer su trabajo, encargarse de las tareas del hogar, o llevarse bien con otras personas?',
    _text: {
      extension: [
        translation(
          'en',
          'If you checked off any problems, how difficult have these problems made it for you to do your work, take care of things at home, or get along with other people?',
        ),
      ],
    },
    enableWhen: linkIds.map((question) => ({
      question,
      operator: '!=',
      answerCoding: { system: optionSystem, code: '0' },
    })),
    enableBehavior: 'any',
    answerOption: difficultyOptions.map((option) => ({
      valueCoding: {
        system: 'urn:telemedicina:intake:difficulty',
        code: option.code,
        display: option.es,
        _display: { extension: [translation('en', option.en)] },
      },
    })),
  } as QuestionnaireItem;
}

const stem = {
  es: 'Durante las últimas 2 semanas, ¿qué tan seguido ha tenido molestias debido a los siguientes problemas?',
  en: 'Over the last 2 weeks, how often have you been bothered by any of the following problems?',
};

const phq9Questions: Array<[string, string]> = [
  ['Poco interés o placer en hacer cosas', 'Little interest or pleasure in doing things'],
  ['Se ha sentido decaído(a), deprimido(a) o sin esperanzas', 'Feeling down, depressed, or hopeless'],
  [
    'Ha tenido dificultad para quedarse o permanecer dormido(a), o ha dormido demasiado',
    'Trouble falling or staying asleep, or sleeping too much',
  ],
  ['Se ha sentido cansado(a) o con poca energía', 'Feeling tired or having little energy'],
  ['Sin apetito o ha comido en exceso', 'Poor appetite or overeating'],
  [
    'Se ha sentido mal con usted mismo(a) – o que es un fracaso o que ha quedado mal con usted mismo(a) o con su familia',
    'Feeling bad about yourself — or that you are a failure or have let yourself or your family down',
  ],
  [
    'Ha tenido dificultad para concentrarse en ciertas actividades, tales como leer el periódico o ver la televisión',
    'Trouble concentrating on things, such as reading the newspaper or watching television',
  ],
  [
    '¿Se ha movido o hablado tan lento que otras personas podrían haberlo notado? O lo contrario – muy inquieto(a) o agitado(a) que ha estado moviéndose mucho más de lo normal',
    'Moving or speaking so slowly that other people could have noticed? Or the opposite — being so fidgety or restless that you have been moving around a lot more than usual',
  ],
  [
    'Pensamientos de que estaría mejor muerto(a) o de lastimarse de alguna manera',
    'Thoughts that you would be better off dead or of hurting yourself in some way',
  ],
];

const gad7Questions: Array<[string, string]> = [
  [
    'Se ha sentido nervioso(a), ansioso(a) o con los nervios de punta',
    'Feeling nervous, anxious, or on edge',
  ],
  ['No ha sido capaz de parar o controlar su preocupación', 'Not being able to stop or control worrying'],
  ['Se ha preocupado demasiado por motivos diferentes', 'Worrying too much about different things'],
  ['Ha tenido dificultad para relajarse', 'Trouble relaxing'],
  [
    'Se ha sentido tan inquieto(a) que no ha podido quedarse quieto(a)',
    'Being so restless that it is hard to sit still',
  ],
  ['Se ha molestado o irritado fácilmente', 'Becoming easily annoyed or irritable'],
  [
    'Ha tenido miedo de que algo terrible fuera a pasar',
    'Feeling afraid, as if something awful might happen',
  ],
];

function instrument(
  key: Instrument,
  prefix: string,
  title: { es: string; en: string },
  loinc: { code: string; display: string },
  questions: Array<[string, string]>,
): Questionnaire {
  const linkIds = questions.map((_, index) => `${prefix}-${index + 1}`);
  return {
    resourceType: 'Questionnaire',
    url: `urn:telemedicina:questionnaire:${key}`,
    name: key.toUpperCase(),
    title: title.es,
    _title: { extension: [translation('en', title.en)] },
    status: 'active',
    code: [{ system: 'http://loinc.org', code: loinc.code, display: loinc.display }],
    copyright:
      'PHQ-9 / GAD-7: developed by Drs. Robert L. Spitzer, Janet B.W. Williams, Kurt Kroenke and colleagues, with an educational grant from Pfizer Inc. No permission required to reproduce, translate, display or distribute.',
    item: [
      {
        linkId: `${prefix}-items`,
        type: 'group',
        text: stem.es,
        _text: { extension: [translation('en', stem.en)] },
        item: questions.map(([es, en], index) => scoredItem(linkIds[index] ?? '', es, en)),
      } as QuestionnaireItem,
      difficultyItem(prefix, linkIds),
    ],
  } as Questionnaire;
}

/** PHQ-9: depression (LOINC 44249-1). */
export const phq9Questionnaire: Questionnaire = instrument(
  'phq9',
  'phq9',
  { es: 'Cuestionario sobre la salud del paciente (PHQ-9)', en: 'Patient Health Questionnaire (PHQ-9)' },
  { code: '44249-1', display: 'PHQ-9 quick depression assessment panel' },
  phq9Questions,
);

/** GAD-7: anxiety (LOINC 69737-5). */
export const gad7Questionnaire: Questionnaire = instrument(
  'gad7',
  'gad7',
  { es: 'Trastorno de ansiedad generalizada (GAD-7)', en: 'Generalized Anxiety Disorder (GAD-7)' },
  { code: '69737-5', display: 'Generalized anxiety disorder 7 item (GAD-7)' },
  gad7Questions,
);

/** The shipped instruments, by the key the server stores. */
export const shippedInstruments: Record<Instrument, Questionnaire> = {
  phq9: phq9Questionnaire,
  gad7: gad7Questionnaire,
};
