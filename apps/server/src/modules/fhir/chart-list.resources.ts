import type {
  AllergyIntolerance,
  Condition,
  MedicationStatement,
  Resource,
  ResourceType,
} from '@medplum/fhirtypes';
import { isUuid } from '../../lib/uuid.js';
import {
  listAllergies,
  listConditions,
  listMedications,
  type AllergyRow,
  type ConditionRow,
  type MedicationRow,
} from '../records/chart-lists.repository.js';
import type { Database } from '../../db/client.js';
import { grantFor, patientRequired, searchPatient } from './fhir-reader.js';
import { emptyResult, ref, single, type ResourceHandler } from './fhir-resource.js';
import { findChartListPatientId } from './fhir.repository.js';

/*
 * The chart's lists (allergies, conditions with their ICD-10 code as recorded, medications) as
 * AllergyIntolerance, Condition and MedicationStatement: the live entries, as the chart shows them.
 */

const icd10 = 'http://hl7.org/fhir/sid/icd-10';
const allergyClinical = 'http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical';
const allergyVerification = 'http://terminology.hl7.org/CodeSystem/allergyintolerance-verification';
const conditionClinical = 'http://terminology.hl7.org/CodeSystem/condition-clinical';
const conditionVerification = 'http://terminology.hl7.org/CodeSystem/condition-ver-status';
const conditionCategory = 'http://terminology.hl7.org/CodeSystem/condition-category';

export function presentAllergy(row: AllergyRow): AllergyIntolerance {
  return {
    resourceType: 'AllergyIntolerance',
    id: row.id,
    clinicalStatus: { coding: [{ system: allergyClinical, code: 'active' }] },
    verificationStatus: { coding: [{ system: allergyVerification, code: 'confirmed' }] },
    code: { text: row.substance },
    patient: ref('Patient', row.patientUserId),
    recordedDate: row.recordedAt.toISOString(),
    ...(row.reaction === null || row.reaction === ''
      ? {}
      : {
          reaction: [
            {
              manifestation: [{ text: row.reaction }],
              ...(row.severity === 'unknown' ? {} : { severity: row.severity }),
            },
          ],
        }),
  };
}

export function presentCondition(
  row: ConditionRow & { nameEs: string | null; nameEn: string | null },
  language: string,
): Condition {
  const display = (language === 'en' ? row.nameEn : row.nameEs) ?? undefined;
  return {
    resourceType: 'Condition',
    id: row.id,
    clinicalStatus: { coding: [{ system: conditionClinical, code: row.status }] },
    verificationStatus: { coding: [{ system: conditionVerification, code: 'confirmed' }] },
    category: [{ coding: [{ system: conditionCategory, code: 'problem-list-item' }] }],
    code: {
      ...(row.diagnosisCode === null
        ? {}
        : {
            coding: [
              { system: icd10, code: row.diagnosisCode, ...(display === undefined ? {} : { display }) },
            ],
          }),
      text: row.description,
    },
    subject: ref('Patient', row.patientUserId),
    ...(row.onsetDate === null ? {} : { onsetDateTime: row.onsetDate }),
    recordedDate: row.recordedAt.toISOString(),
  };
}

export function presentMedicationStatement(row: MedicationRow): MedicationStatement {
  const dosage = [row.dose, row.frequency].filter((part) => part !== null && part !== '').join(', ');
  return {
    resourceType: 'MedicationStatement',
    id: row.id,
    status: row.stoppedOn === null ? 'active' : 'completed',
    medicationCodeableConcept: { text: row.name },
    subject: ref('Patient', row.patientUserId),
    ...(row.startedOn === null && row.stoppedOn === null
      ? {}
      : {
          effectivePeriod: {
            ...(row.startedOn === null ? {} : { start: row.startedOn }),
            ...(row.stoppedOn === null ? {} : { end: row.stoppedOn }),
          },
        }),
    dateAsserted: row.recordedAt.toISOString(),
    ...(dosage === '' ? {} : { dosage: [{ text: dosage }] }),
  };
}

type ListKind = 'allergies' | 'conditions' | 'medications';

/** The live entries of one list of the patient's chart, as resources (the reader's language for names). */
async function listOf(
  db: Database,
  kind: ListKind,
  patientId: string,
  language: string,
): Promise<Resource[]> {
  switch (kind) {
    case 'allergies':
      return (await listAllergies(db, patientId, false)).map(presentAllergy);
    case 'conditions':
      return (await listConditions(db, patientId, false)).map((row) => presentCondition(row, language));
    case 'medications':
      return (await listMedications(db, patientId, false)).map(presentMedicationStatement);
  }
}

function chartListHandler(type: ResourceType, kind: ListKind, documentation: string): ResourceHandler {
  return {
    type,
    documentation,
    searchParams: [{ name: 'patient', type: 'reference', documentation: 'The patient (Patient/<id>).' }],
    async read(reader, limit, id) {
      const patientId = isUuid(id) ? await findChartListPatientId(reader.ctx.db, kind, id) : null;
      const grant = patientId === null ? null : await grantFor(reader, limit, patientId, 'clinical');
      if (grant === null) {
        return null;
      }
      const language = grant.chart?.patient.language ?? 'es';
      const resource = (await listOf(reader.ctx.db, kind, grant.patientId, language)).find(
        (entry) => entry.id === id,
      );
      return resource === undefined ? null : { resource, patient: grant };
    },
    async search(reader, limit, { params, count, offset }) {
      const target = await searchPatient(reader, limit, single(params, 'patient'), 'clinical');
      if (target.kind === 'missing') {
        throw patientRequired();
      }
      if (target.kind === 'none') {
        return emptyResult;
      }
      const language = target.grant.chart?.patient.language ?? 'es';
      const all = await listOf(reader.ctx.db, kind, target.grant.patientId, language);
      return { resources: all.slice(offset, offset + count), total: all.length, patients: [target.grant] };
    },
  };
}

export const allergyIntoleranceHandler = chartListHandler(
  'AllergyIntolerance',
  'allergies',
  "The allergies on the patient's chart (removed entries are not listed).",
);
export const conditionHandler = chartListHandler(
  'Condition',
  'conditions',
  "The conditions on the patient's chart, with their ICD-10 code as recorded (http://hl7.org/fhir/sid/icd-10).",
);
export const medicationStatementHandler = chartListHandler(
  'MedicationStatement',
  'medications',
  "The medications on the patient's chart (active, or completed once stopped).",
);
