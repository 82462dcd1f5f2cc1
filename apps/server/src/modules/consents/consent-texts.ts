/**
 * The words of the consent documents shipped with the project: the telemedicine consent every
 * installation has (system data, so a patient can always sign it) and, for the demo clinic, a
 * data-processing consent. The clinic edits them as new versions; these are version 1.
 */
export const telemedicineConsentKey = 'telemedicine';

export const telemedicineConsentText = {
  titleEs: 'Consentimiento informado para la atención por telemedicina',
  titleEn: 'Informed consent to care by telemedicine',
  bodyEs: [
    'Usted solicita ser atendido por videoconsulta. Le explicamos qué significa antes de que dé su consentimiento.',
    'En una videoconsulta el médico no puede explorarle físicamente. Si con lo que ve y escucha no puede llegar a una conclusión segura, se lo dirá y le propondrá una consulta presencial o una prueba.',
    'La llamada viaja cifrada y no se graba. Lo que el médico anote forma parte de su historia clínica, con las mismas reglas de confidencialidad que una consulta en persona.',
    'Procure conectarse desde un lugar privado, con buena conexión. Si la llamada se corta, el médico intentará reanudarla; si no es posible, la clínica se pondrá en contacto con usted.',
    'La telemedicina no sirve para urgencias: ante una urgencia llame al número de emergencias de su país.',
    'Puede retirar este consentimiento cuando lo desee desde sus documentos; la retirada no afecta a la atención ya recibida.',
  ].join('\n\n'),
  bodyEn: [
    'You are asking to be seen by video visit. We explain what this means before you give your consent.',
    'In a video visit the doctor cannot examine you physically. If what they see and hear is not enough to reach a safe conclusion, they will tell you and propose an in-person visit or a test.',
    'The call is encrypted and is not recorded. What the doctor writes down becomes part of your medical record, under the same confidentiality rules as an in-person visit.',
    'Please connect from a private place with a good connection. If the call drops, the doctor will try to resume it; if that is not possible, the clinic will contact you.',
    'Telemedicine is not for emergencies: in an emergency, call your country’s emergency number.',
    'You may withdraw this consent at any time from your documents; withdrawing does not affect care already received.',
  ].join('\n\n'),
};

export const dataProcessingConsentText = {
  titleEs: 'Consentimiento para el tratamiento de sus datos de salud',
  titleEn: 'Consent to the processing of your health data',
  bodyEs: [
    'La clínica trata sus datos personales y de salud para prestarle atención médica, gestionar sus citas y cumplir sus obligaciones legales.',
    'Sus datos solo los ven los profesionales que le atienden y el personal que lo necesita para su trabajo; cada acceso a su historia queda registrado y usted puede consultarlo.',
    'Puede pedir una copia de sus datos, su corrección o, cuando la ley lo permita, su supresión.',
    'Puede retirar este consentimiento cuando lo desee desde sus documentos.',
  ].join('\n\n'),
  bodyEn: [
    'The clinic processes your personal and health data to provide you with medical care, manage your appointments and meet its legal obligations.',
    'Your data is seen only by the professionals who treat you and the staff who need it for their work; every access to your record is logged and you can review it.',
    'You may ask for a copy of your data, its correction or, where the law allows, its deletion.',
    'You may withdraw this consent at any time from your documents.',
  ].join('\n\n'),
};
