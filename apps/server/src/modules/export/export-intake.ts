import type { Bundle, Extension, Questionnaire, QuestionnaireResponse } from '@medplum/fhirtypes';
import type { Language } from '@telemedicina/shared/i18n';
import { answersOf, textIn, type Instrument, type Severity } from '@telemedicina/shared/intake-logic';
import { readableAnswers, type ReadableAnswer } from '@telemedicina/shared/intake-summary';
import type { ResponseWithVersion } from '../questionnaires/questionnaires.repository.js';

/** Where the machine-readable responses sit in the ZIP. */
export const intakeBundlePath = 'fhir/questionnaire-responses.json';

/** The highest total of each scored instrument (the summary says "score n of max"). */
export const instrumentMaxScore: Record<Instrument, number> = { phq9: 27, gad7: 21 };

/** One response as the readable summary shows it, in the patient's language. */
export interface ExportedIntakeResponse {
  title: string;
  status: 'in-progress' | 'completed';
  /** When it was sent (completed) or last saved (still open), ISO. */
  at: string;
  score: { instrument: Instrument; score: number; severity: Severity; selfHarmFlag: boolean } | null;
  answers: ReadableAnswer[];
}

/** The responses an export carries: every sent one, and open ones that hold some answer. */
export function exportableIntake(rows: readonly ResponseWithVersion[]): ResponseWithVersion[] {
  return rows
    .filter(
      (row) =>
        row.response.status === 'completed' || Object.keys(answersOf(row.response.resource)).length > 0,
    )
    .sort((a, b) => a.response.createdAt.getTime() - b.response.createdAt.getTime());
}

function fhirResponse(row: ResponseWithVersion, patientId: string): QuestionnaireResponse {
  return {
    ...row.response.resource,
    resourceType: 'QuestionnaireResponse',
    id: row.response.id,
    status: row.response.status,
    subject: { reference: `Patient/${patientId}` },
    authored: (row.response.completedAt ?? row.response.updatedAt).toISOString(),
  };
}

/**
 * A FHIR R4 `Bundle` (collection) of the patient's `QuestionnaireResponse`s as stored, each with the
 * exact `Questionnaire` version it answers (so the file reads on its own, without this clinic).
 */
export function presentIntakeBundle(
  rows: readonly ResponseWithVersion[],
  patientId: string,
  now: Date,
): Bundle {
  const versions = new Map<string, Questionnaire>();
  for (const row of rows) {
    versions.set(row.version.id, {
      ...row.version.resource,
      resourceType: 'Questionnaire',
      id: row.version.id,
    });
  }
  return {
    resourceType: 'Bundle',
    type: 'collection',
    timestamp: now.toISOString(),
    entry: [
      ...[...versions.values()].map((resource) => ({ resource })),
      ...rows.map((row) => ({ resource: fhirResponse(row, patientId) })),
    ],
  };
}

/** The responses for the readable summary: title, date, score and band, answers in words. */
export function presentIntakeSummaries(
  rows: readonly ResponseWithVersion[],
  language: Language,
): ExportedIntakeResponse[] {
  return rows.map((row) => {
    const resource = row.version.resource as Questionnaire & { _title?: { extension?: Extension[] } };
    const { response } = row;
    return {
      title: textIn(resource.title, resource._title, language),
      status: response.status,
      at: (response.completedAt ?? response.updatedAt).toISOString(),
      score:
        row.instrument !== null && response.status === 'completed' && response.score !== null
          ? {
              instrument: row.instrument,
              score: response.score,
              severity: response.severity as Severity,
              selfHarmFlag: response.selfHarmFlag,
            }
          : null,
      answers: readableAnswers(row.version.resource, response.resource, language),
    };
  });
}
