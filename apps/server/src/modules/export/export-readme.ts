import type { Language } from '@telemedicina/shared/i18n';
import { recordExportFormat, recordExportVersion } from '@telemedicina/shared/export';
import { t } from '../../text/catalogue.js';
import { intakeBundlePath } from './export-intake.js';

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
  /** Questionnaire responses in fhir/questionnaire-responses.json (the file is left out at 0). */
  questionnaires: number;
}

/**
 * README.txt of an export, in the patient's language: what each file is, how to read
 * record.json, and what is deliberately left out. Plain text with CRLF line ends, so every
 * editor (Notepad included) shows it as written.
 */
export function renderReadme(language: Language, facts: ReadmeFacts): string {
  const blocks = [
    [
      t(language, 'exportReadme.title', { patient: facts.patientName.toUpperCase() }),
      t(language, 'exportReadme.exported', { clinic: facts.clinicName, exportedAt: facts.exportedAt }),
      facts.requestedBy === 'patient'
        ? t(language, 'exportReadme.requestedByPatient')
        : t(language, 'exportReadme.requestedByAdministrator'),
    ].join('\n'),
    t(language, 'exportReadme.contents'),
    t(language, 'exportReadme.summaryFile'),
    t(language, 'exportReadme.recordFile', { format: recordExportFormat, version: recordExportVersion }),
    t(language, 'exportReadme.folders', {
      prescriptions: facts.prescriptions,
      summaries: facts.summaries,
      documents: facts.documents,
    }),
    ...(facts.questionnaires > 0
      ? [
          t(language, 'exportReadme.questionnairesFile', {
            path: intakeBundlePath,
            count: facts.questionnaires,
          }),
        ]
      : []),
    facts.missingFiles > 0
      ? `${t(language, 'exportReadme.notIncluded')}\n${t(language, 'exportReadme.missingFiles', { count: facts.missingFiles })}`
      : t(language, 'exportReadme.notIncluded'),
    t(language, 'exportReadme.pharmacy'),
    t(language, 'exportReadme.confidential'),
  ];
  // One blank line between blocks; CRLF everywhere, whatever the catalogue's own line ends.
  return `${blocks.join('\n\n').split('\n').join('\r\n')}\r\n`;
}
