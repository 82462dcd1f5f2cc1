import type { Extension } from '@medplum/fhirtypes';
import type { IntakeFormSummary, IntakeResponseDetail, IntakeScore } from '@telemedicina/shared/intake';
import { textIn } from '@telemedicina/shared/intake-logic';
import type { ResponseWithVersion } from '../questionnaires/questionnaires.repository.js';

function scoreOf(row: ResponseWithVersion): IntakeScore | null {
  const { response, instrument } = row;
  if (instrument === null || response.status !== 'completed' || response.score === null) {
    return null;
  }
  return {
    instrument,
    score: response.score,
    severity: response.severity as IntakeScore['severity'],
    selfHarmFlag: response.selfHarmFlag,
  };
}

export function presentFormSummary(row: ResponseWithVersion): IntakeFormSummary {
  const { response, version } = row;
  const resource = version.resource as typeof version.resource & { _title?: { extension?: Extension[] } };
  return {
    id: response.id,
    appointmentId: response.appointmentId,
    patientId: response.patientUserId,
    title: {
      es: textIn(resource.title, resource._title, 'es'),
      en: textIn(resource.title, resource._title, 'en'),
    },
    questionnaireVersion: version.version,
    status: response.status,
    updatedAt: response.updatedAt.toISOString(),
    completedAt: response.completedAt?.toISOString() ?? null,
    score: scoreOf(row),
  };
}

export function presentResponseDetail(row: ResponseWithVersion): IntakeResponseDetail {
  return {
    ...presentFormSummary(row),
    questionnaire: { ...row.version.resource, resourceType: 'Questionnaire' },
    response: { ...row.response.resource, resourceType: 'QuestionnaireResponse' },
  };
}
