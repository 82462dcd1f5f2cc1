import type {
  Allergy,
  Chart,
  ChartAccess,
  Condition,
  Medication,
  PatientSummary,
  RecordAccessEntry,
} from '@telemedicina/shared/records';
import type { AllergyRow, ConditionRow, MedicationRow, WithPeople } from './chart-lists.repository.js';
import type { ChartVisitRow } from './chart.repository.js';
import type { PatientProfileRow, PatientUserRow } from './patients.repository.js';

const iso = (value: Date | null): string | null => (value === null ? null : value.toISOString());

function person(id: string | null, name: string | null): { id: string; name: string } | null {
  return id === null || name === null ? null : { id, name };
}

export function presentPatientSummary(
  row: PatientUserRow & { lastVisitAt: Date | null; nextVisitAt: Date | null },
): PatientSummary {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    dateOfBirth: row.dateOfBirth,
    lastVisitAt: iso(row.lastVisitAt),
    nextVisitAt: iso(row.nextVisitAt),
  };
}

export function presentAllergy(row: WithPeople<AllergyRow>): Allergy {
  return {
    id: row.id,
    substance: row.substance,
    reaction: row.reaction,
    severity: row.severity,
    recordedAt: row.recordedAt.toISOString(),
    recordedBy: person(row.recordedByUserId, row.recordedByName),
    removedAt: iso(row.removedAt),
    removedBy: person(row.removedByUserId, row.removedByName),
  };
}

export function presentCondition(
  row: WithPeople<ConditionRow> & { nameEs: string | null; nameEn: string | null },
  language: string,
): Condition {
  return {
    id: row.id,
    description: row.description,
    diagnosisCode: row.diagnosisCode,
    diagnosisName: language === 'en' ? row.nameEn : row.nameEs,
    status: row.status,
    onsetDate: row.onsetDate,
    recordedAt: row.recordedAt.toISOString(),
    recordedBy: person(row.recordedByUserId, row.recordedByName),
    removedAt: iso(row.removedAt),
    removedBy: person(row.removedByUserId, row.removedByName),
  };
}

export function presentMedication(row: WithPeople<MedicationRow>): Medication {
  return {
    id: row.id,
    name: row.name,
    dose: row.dose,
    frequency: row.frequency,
    startedOn: row.startedOn,
    stoppedOn: row.stoppedOn,
    recordedAt: row.recordedAt.toISOString(),
    recordedBy: person(row.recordedByUserId, row.recordedByName),
    removedAt: iso(row.removedAt),
    removedBy: person(row.removedByUserId, row.removedByName),
  };
}

/** The administrative part every reader gets (staff get only this: `clinical: null`). */
export function presentAdministrativeChart(input: {
  patient: PatientUserRow;
  profile: PatientProfileRow | null;
  access: ChartAccess;
  emergencyExpiresAt: Date | null;
  visits: ChartVisitRow[];
  withReasons: boolean;
}): Chart {
  const { patient, profile } = input;
  return {
    patientId: patient.id,
    access: input.access,
    emergencyExpiresAt: iso(input.emergencyExpiresAt),
    demographics: {
      name: patient.name,
      dateOfBirth: patient.dateOfBirth,
      sex: profile?.sex ?? 'unknown',
      phone: patient.phone,
      email: patient.email,
      language: patient.language,
      address: profile?.address ?? null,
    },
    identityDocument: {
      type: profile?.identityDocumentType ?? null,
      number: profile?.identityDocumentNumber ?? null,
    },
    emergencyContact: {
      name: profile?.emergencyContactName ?? null,
      phone: profile?.emergencyContactPhone ?? null,
      relation: profile?.emergencyContactRelation ?? null,
    },
    visits: input.visits.map((visit) => ({
      id: visit.id,
      startsAt: visit.startsAt.toISOString(),
      status: visit.status,
      doctor: { id: visit.doctorId, name: visit.doctorName },
      reason: input.withReasons ? visit.reason : null,
    })),
    clinical: null,
  };
}

/** The role shown beside a name in the access log: the most telling system role the person holds. */
function roleOf(roleKeys: string[] | null): string | null {
  if (roleKeys === null || roleKeys.length === 0) {
    return null;
  }
  return ['doctor', 'staff', 'admin', 'patient'].find((key) => roleKeys.includes(key)) ?? roleKeys[0]!;
}

function textOf(details: Record<string, unknown>, key: string): string | null {
  const value = details[key];
  return typeof value === 'string' && value !== '' ? value : null;
}

export function presentRecordAccessEntry(row: {
  id: number;
  at: Date;
  action: string;
  actorUserId: string | null;
  actorName: string | null;
  actorRoleKeys: string[] | null;
  details: Record<string, unknown>;
}): RecordAccessEntry {
  const isEmergency = row.action === 'record.emergency_access' || row.details.emergency === true;
  return {
    id: row.id,
    at: row.at.toISOString(),
    action: row.action,
    actor:
      row.actorUserId === null
        ? null
        : { id: row.actorUserId, name: row.actorName ?? '', roleKey: roleOf(row.actorRoleKeys) },
    section: textOf(row.details, 'section'),
    isEmergency,
    emergencyReason: isEmergency ? textOf(row.details, 'reason') : null,
    client: clientOf(row.details.client),
    resourceType: textOf(row.details, 'resourceType'),
  };
}

/** The third-party app a FHIR read was made by (`details.client`), or null. */
function clientOf(value: unknown): { id: string; name: string } | null {
  if (typeof value !== 'object' || value === null) {
    return null;
  }
  const { id, name } = value as { id?: unknown; name?: unknown };
  return typeof id === 'string' && typeof name === 'string' ? { id, name } : null;
}
