import { sql } from 'drizzle-orm';
import { executeNamed, type Database } from '../../db/client.js';
import type { AllergyRow, ConditionRow, MedicationRow, WithPeople } from './chart-lists.repository.js';
import type { PatientProfileRow } from './patients.repository.js';

/** One past or booked visit of the chart. */
export interface ChartVisitRow {
  id: string;
  startsAt: Date;
  status: string;
  reason: string | null;
  doctorId: string;
  doctorName: string;
}

/** One prescription of the chart (its items are only counted). */
export interface ChartPrescriptionRow {
  id: string;
  issuedAt: Date;
  status: 'active' | 'cancelled';
  doctorId: string;
  doctorName: string;
  itemCount: number;
}

/** Everything the chart shows besides the patient row and documents, read in one statement. */
export interface ChartData {
  profile: PatientProfileRow | null;
  visits: ChartVisitRow[];
  /** Present when the clinical part was asked for. */
  clinical: {
    /** The reader's language (names of catalogue diagnoses); null when the reader no longer exists. */
    readerLanguage: string | null;
    allergies: WithPeople<AllergyRow>[];
    conditions: (WithPeople<ConditionRow> & { nameEs: string | null; nameEn: string | null })[];
    medications: WithPeople<MedicationRow>[];
    prescriptions: ChartPrescriptionRow[];
  } | null;
}

/** An instant as whole epoch milliseconds in JSON (exact, whatever the session's TimeZone/DateStyle). */
const epochMsText = (column: string) => `floor(extract(epoch from ${column}) * 1000)::bigint`;
const epochMs = (column: string) => sql.raw(epochMsText(column));
const toDate = (value: number | string | null): Date | null =>
  value === null ? null : new Date(Number(value));
const toInstant = (value: number | string): Date => new Date(Number(value));

/**
 * The profile, visits and — when `clinical` — the reader's language, allergies, conditions,
 * medications and prescriptions of one chart, in a single round trip: each list is aggregated
 * into JSON by PostgreSQL with the same filters and order as its own query would use
 * (listAllergies, listConditions, listMedications, listPatientVisits, listPatientPrescriptions).
 */
export async function readChartData(
  db: Database,
  options: {
    patientId: string;
    readerUserId: string;
    clinical: boolean;
    includeRemoved: boolean;
    limit: number;
  },
): Promise<ChartData> {
  const { patientId } = options;
  const notRemoved = (alias: string) =>
    sql.raw(options.includeRemoved ? 'true' : `${alias}.removed_at is null`);
  const people = (alias: string) =>
    sql.raw(
      `'recordedByUserId', ${alias}.recorded_by_user_id, 'recordedByName', recorder.name, ` +
        `'recordedAt', ${epochMsText(`${alias}.recorded_at`)}, ` +
        `'removedAt', ${epochMsText(`${alias}.removed_at`)}, ` +
        `'removedByUserId', ${alias}.removed_by_user_id, 'removedByName', remover.name`,
    );
  const joinPeople = (alias: string) =>
    sql.raw(
      `left join users recorder on recorder.id = ${alias}.recorded_by_user_id ` +
        `left join users remover on remover.id = ${alias}.removed_by_user_id`,
    );
  const clinicalColumns = options.clinical
    ? sql`,
      (select language from users where id = ${options.readerUserId}) as reader_language,
      (select coalesce(json_agg(x.j order by x.ord), '[]'::json) from (
        select row_number() over (order by a.recorded_at desc, a.id desc) as ord, json_build_object(
          'id', a.id, 'patientUserId', a.patient_user_id, 'substance', a.substance,
          'reaction', a.reaction, 'severity', a.severity, ${people('a')}) as j
        from patient_allergies a ${joinPeople('a')}
        where a.patient_user_id = ${patientId} and ${notRemoved('a')}
      ) x) as allergies,
      (select coalesce(json_agg(x.j order by x.ord), '[]'::json) from (
        select row_number() over (order by c.recorded_at desc, c.id desc) as ord, json_build_object(
          'id', c.id, 'patientUserId', c.patient_user_id, 'diagnosisCode', c.diagnosis_code,
          'description', c.description, 'status', c.status, 'onsetDate', c.onset_date,
          'nameEs', d.name_es, 'nameEn', d.name_en, ${people('c')}) as j
        from patient_conditions c
        left join diagnosis_codes d on d.code = c.diagnosis_code
        ${joinPeople('c')}
        where c.patient_user_id = ${patientId} and ${notRemoved('c')}
      ) x) as conditions,
      (select coalesce(json_agg(x.j order by x.ord), '[]'::json) from (
        select row_number() over (order by m.recorded_at desc, m.id desc) as ord, json_build_object(
          'id', m.id, 'patientUserId', m.patient_user_id, 'name', m.name, 'dose', m.dose,
          'frequency', m.frequency, 'startedOn', m.started_on, 'stoppedOn', m.stopped_on, ${people('m')}) as j
        from patient_medications m ${joinPeople('m')}
        where m.patient_user_id = ${patientId} and ${notRemoved('m')}
      ) x) as medications,
      (select coalesce(json_agg(x.j order by x.ord), '[]'::json) from (
        select row_number() over (order by p.issued_at desc) as ord, json_build_object(
          'id', p.id, 'issuedAt', ${epochMs('p.issued_at')}, 'status', p.status,
          'doctorId', p.doctor_user_id, 'doctorName', doctor.name,
          'itemCount', (select count(*)::int from prescription_items i where i.prescription_id = p.id)) as j
        from prescriptions p
        join users doctor on doctor.id = p.doctor_user_id
        where p.patient_user_id = ${patientId}
        order by p.issued_at desc
        limit ${options.limit}
      ) x) as prescriptions`
    : sql``;
  const [row] = (await executeNamed(
    db,
    'records_chart',
    sql`
    select
      (select json_build_object(
        'userId', pp.user_id, 'sex', pp.sex,
        'identityDocumentType', pp.identity_document_type, 'identityDocumentNumber', pp.identity_document_number,
        'address', pp.address, 'bloodType', pp.blood_type,
        'emergencyContactName', pp.emergency_contact_name, 'emergencyContactPhone', pp.emergency_contact_phone,
        'emergencyContactRelation', pp.emergency_contact_relation, 'updatedByUserId', pp.updated_by_user_id,
        'createdAt', ${epochMs('pp.created_at')}, 'updatedAt', ${epochMs('pp.updated_at')})
        from patient_profiles pp where pp.user_id = ${patientId}) as profile,
      (select coalesce(json_agg(x.j order by x.ord), '[]'::json) from (
        select row_number() over (order by v.starts_at desc) as ord, json_build_object(
          'id', v.id, 'startsAt', ${epochMs('v.starts_at')}, 'status', v.status, 'reason', v.reason,
          'doctorId', v.doctor_user_id, 'doctorName', doctor.name) as j
        from appointments v
        join users doctor on doctor.id = v.doctor_user_id
        where v.patient_user_id = ${patientId}
        order by v.starts_at desc
        limit ${options.limit}
      ) x) as visits${clinicalColumns}
  `,
  )) as [Record<string, unknown>];
  const json = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T;
  type Raw = Record<string, unknown> & { recordedAt: number; removedAt: number | null };
  const withPeopleDates = <T>(raw: Raw): T =>
    ({ ...raw, recordedAt: toInstant(raw.recordedAt), removedAt: toDate(raw.removedAt) }) as T;
  const profile = json<(Record<string, unknown> & { createdAt: number; updatedAt: number }) | null>(
    row.profile,
  );
  return {
    profile:
      profile === null
        ? null
        : ({
            ...profile,
            createdAt: toInstant(profile.createdAt),
            updatedAt: toInstant(profile.updatedAt),
          } as PatientProfileRow),
    visits: json<(Omit<ChartVisitRow, 'startsAt'> & { startsAt: number })[]>(row.visits).map((visit) => ({
      ...visit,
      startsAt: toInstant(visit.startsAt),
    })),
    clinical: options.clinical
      ? {
          readerLanguage: (row.reader_language as string | null) ?? null,
          allergies: json<Raw[]>(row.allergies).map((raw) => withPeopleDates<WithPeople<AllergyRow>>(raw)),
          conditions: json<Raw[]>(row.conditions).map((raw) =>
            withPeopleDates<WithPeople<ConditionRow> & { nameEs: string | null; nameEn: string | null }>(raw),
          ),
          medications: json<Raw[]>(row.medications).map((raw) =>
            withPeopleDates<WithPeople<MedicationRow>>(raw),
          ),
          prescriptions: json<(Omit<ChartPrescriptionRow, 'issuedAt'> & { issuedAt: number })[]>(
            row.prescriptions,
          ).map((prescription) => ({ ...prescription, issuedAt: toInstant(prescription.issuedAt) })),
        }
      : null,
  };
}
