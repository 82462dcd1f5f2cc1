import type { Language } from '@telemedicina/shared';
import { recordExportFormat, recordExportVersion } from '@telemedicina/shared';

export interface ReadmeFacts {
  clinicName: string;
  patientName: string;
  /** Already formatted in the reader's language and zone. */
  exportedAt: string;
  requestedBy: 'patient' | 'administrator';
  prescriptions: number;
  summaries: number;
  documents: number;
  /** Documents whose file could not be read from storage (listed in record.json with `path: null`). */
  missingFiles: number;
}

/**
 * README.txt of an export, in the patient's language: what each file is, how to read
 * record.json, and what is deliberately left out. Plain text with CRLF line ends, so every
 * editor (Notepad included) shows it as written.
 */
export function renderReadme(language: Language, facts: ReadmeFacts): string {
  const lines = language === 'en' ? englishReadme(facts) : spanishReadme(facts);
  return `${lines.join('\r\n')}\r\n`;
}

function spanishReadme(facts: ReadmeFacts): string[] {
  return [
    `HISTORIA CLÍNICA DE ${facts.patientName.toUpperCase()}`,
    `${facts.clinicName} — exportada el ${facts.exportedAt}`,
    facts.requestedBy === 'patient'
      ? 'Copia solicitada por usted.'
      : 'Copia preparada por la administración de la clínica a petición; el motivo consta en record.json y en el registro de auditoría.',
    '',
    'Este archivo ZIP contiene una copia completa de su historia clínica:',
    '',
    '  resumen-historia-clinica.pdf',
    '    Un resumen para leer: sus datos, alergias, enfermedades, medicación, consultas,',
    '    recetas y documentos, con las horas en la zona horaria de su cuenta.',
    '',
    '  record.json',
    '    Todos los datos en formato JSON, legible por otros programas y sistemas de salud:',
    '    datos personales, documento de identidad, contacto de emergencia, alergias,',
    '    enfermedades y medicación (también las que se dieron por terminadas, con la fecha',
    '    y la persona que lo hizo), citas y consultas, notas clínicas firmadas (en HTML y en',
    '    texto simple), diagnósticos, anotaciones posteriores, constantes vitales, recetas',
    '    con sus medicamentos, la lista de documentos y el registro de accesos.',
    `    Formato "${recordExportFormat}", versión ${recordExportVersion}. Las fechas y horas`,
    '    están en UTC con el formato ISO 8601 (por ejemplo 2026-05-04T09:30:00.000Z).',
    '',
    `  prescriptions/   Recetas en PDF (${facts.prescriptions}), con su código de verificación.`,
    '                   Las anuladas llevan la marca ANULADA.',
    `  summaries/       Resúmenes de consulta en PDF (${facts.summaries}).`,
    `  documents/       Documentos añadidos a su historia (${facts.documents}), con el nombre`,
    '                   que se les dio; si dos coincidían, el segundo lleva un número.',
    '',
    'Qué no se incluye:',
    '  - Las notas clínicas que el médico todavía no ha firmado (borradores).',
    '  - Los documentos que se retiraron de la historia.',
    ...(facts.missingFiles > 0
      ? [
          `  - ${facts.missingFiles} archivo(s) que no se pudieron leer del almacenamiento de la`,
          '    clínica; figuran en record.json con "path": null. Consulte con la clínica.',
        ]
      : []),
    '',
    'Cualquier farmacia puede comprobar una receta con su código de verificación en la',
    'dirección que aparece en el propio PDF.',
    '',
    'Esta copia contiene datos de salud confidenciales. Guárdela en un lugar seguro y',
    'compártala solo con quien usted decida.',
  ];
}

function englishReadme(facts: ReadmeFacts): string[] {
  return [
    `MEDICAL RECORD OF ${facts.patientName.toUpperCase()}`,
    `${facts.clinicName} — exported on ${facts.exportedAt}`,
    facts.requestedBy === 'patient'
      ? 'Copy you requested.'
      : "Copy prepared by the clinic's administration on request; the reason is in record.json and in the audit log.",
    '',
    'This ZIP file holds a complete copy of your medical record:',
    '',
    '  medical-record-summary.pdf',
    '    A summary to read: your details, allergies, conditions, medication, visits,',
    "    prescriptions and documents, with times in your account's time zone.",
    '',
    '  record.json',
    '    All the data as JSON, readable by other programs and health systems: personal',
    '    details, identity document, emergency contact, allergies, conditions and medications',
    '    (also the ones that were ended, with the date and who ended them), appointments and',
    '    visits, signed clinical notes (as HTML and as plain text), diagnoses, addenda,',
    '    vital signs, prescriptions with their medications, the list of documents and the',
    '    access log.',
    `    Format "${recordExportFormat}", version ${recordExportVersion}. Dates and times are in`,
    '    UTC, written as ISO 8601 (for example 2026-05-04T09:30:00.000Z).',
    '',
    `  prescriptions/   Prescriptions as PDF (${facts.prescriptions}), with their verification code.`,
    '                   Cancelled ones are marked CANCELLED.',
    `  summaries/       Visit summaries as PDF (${facts.summaries}).`,
    `  documents/       Documents added to your record (${facts.documents}), under the name they`,
    '                   were given; when two names matched, the second one carries a number.',
    '',
    'What is not included:',
    '  - Clinical notes the doctor has not signed yet (drafts).',
    '  - Documents that were removed from the record.',
    ...(facts.missingFiles > 0
      ? [
          `  - ${facts.missingFiles} file(s) that could not be read from the clinic's storage;`,
          '    record.json lists them with "path": null. Please ask the clinic.',
        ]
      : []),
    '',
    'Any pharmacy can check a prescription with its verification code at the address',
    'printed on the PDF.',
    '',
    'This copy holds confidential health data. Keep it somewhere safe and share it only',
    'with whom you choose.',
  ];
}
