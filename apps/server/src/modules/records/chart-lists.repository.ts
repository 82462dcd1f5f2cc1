import { aliasedTable, and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import {
  appointments,
  diagnosisCodes,
  patientAllergies,
  patientConditions,
  patientMedications,
  prescriptionItems,
  prescriptions,
  users,
} from '../../db/schema.js';

export type AllergyRow = typeof patientAllergies.$inferSelect;
export type ConditionRow = typeof patientConditions.$inferSelect;
export type MedicationRow = typeof patientMedications.$inferSelect;

const recorder = aliasedTable(users, 'recorder');
const remover = aliasedTable(users, 'remover');

export type WithPeople<T> = T & { recordedByName: string | null; removedByName: string | null };

const allergyColumns = {
  id: patientAllergies.id,
  patientUserId: patientAllergies.patientUserId,
  substance: patientAllergies.substance,
  reaction: patientAllergies.reaction,
  severity: patientAllergies.severity,
  recordedByUserId: patientAllergies.recordedByUserId,
  recordedAt: patientAllergies.recordedAt,
  removedAt: patientAllergies.removedAt,
  removedByUserId: patientAllergies.removedByUserId,
};

export async function listAllergies(
  db: Database,
  patientId: string,
  includeRemoved: boolean,
): Promise<WithPeople<AllergyRow>[]> {
  return db
    .select({
      ...allergyColumns,
      recordedByName: recorder.name,
      removedByName: remover.name,
    })
    .from(patientAllergies)
    .leftJoin(recorder, eq(recorder.id, patientAllergies.recordedByUserId))
    .leftJoin(remover, eq(remover.id, patientAllergies.removedByUserId))
    .where(
      and(
        eq(patientAllergies.patientUserId, patientId),
        includeRemoved ? undefined : isNull(patientAllergies.removedAt),
      ),
    )
    .orderBy(desc(patientAllergies.recordedAt), desc(patientAllergies.id));
}

export async function listConditions(
  db: Database,
  patientId: string,
  includeRemoved: boolean,
): Promise<(WithPeople<ConditionRow> & { nameEs: string | null; nameEn: string | null })[]> {
  return db
    .select({
      id: patientConditions.id,
      patientUserId: patientConditions.patientUserId,
      diagnosisCode: patientConditions.diagnosisCode,
      description: patientConditions.description,
      status: patientConditions.status,
      onsetDate: patientConditions.onsetDate,
      recordedByUserId: patientConditions.recordedByUserId,
      recordedAt: patientConditions.recordedAt,
      removedAt: patientConditions.removedAt,
      removedByUserId: patientConditions.removedByUserId,
      nameEs: diagnosisCodes.nameEs,
      nameEn: diagnosisCodes.nameEn,
      recordedByName: recorder.name,
      removedByName: remover.name,
    })
    .from(patientConditions)
    .leftJoin(diagnosisCodes, eq(diagnosisCodes.code, patientConditions.diagnosisCode))
    .leftJoin(recorder, eq(recorder.id, patientConditions.recordedByUserId))
    .leftJoin(remover, eq(remover.id, patientConditions.removedByUserId))
    .where(
      and(
        eq(patientConditions.patientUserId, patientId),
        includeRemoved ? undefined : isNull(patientConditions.removedAt),
      ),
    )
    .orderBy(desc(patientConditions.recordedAt), desc(patientConditions.id));
}

export async function listMedications(
  db: Database,
  patientId: string,
  includeRemoved: boolean,
): Promise<WithPeople<MedicationRow>[]> {
  return db
    .select({
      id: patientMedications.id,
      patientUserId: patientMedications.patientUserId,
      name: patientMedications.name,
      dose: patientMedications.dose,
      frequency: patientMedications.frequency,
      startedOn: patientMedications.startedOn,
      stoppedOn: patientMedications.stoppedOn,
      recordedByUserId: patientMedications.recordedByUserId,
      recordedAt: patientMedications.recordedAt,
      removedAt: patientMedications.removedAt,
      removedByUserId: patientMedications.removedByUserId,
      recordedByName: recorder.name,
      removedByName: remover.name,
    })
    .from(patientMedications)
    .leftJoin(recorder, eq(recorder.id, patientMedications.recordedByUserId))
    .leftJoin(remover, eq(remover.id, patientMedications.removedByUserId))
    .where(
      and(
        eq(patientMedications.patientUserId, patientId),
        includeRemoved ? undefined : isNull(patientMedications.removedAt),
      ),
    )
    .orderBy(desc(patientMedications.recordedAt), desc(patientMedications.id));
}

const doctor = aliasedTable(users, 'doctor');

/** Every appointment of the patient, newest first (the clinic is one practice). */
export async function listPatientVisits(db: Database, patientId: string, limit: number) {
  return db
    .select({
      id: appointments.id,
      startsAt: appointments.startsAt,
      status: appointments.status,
      reason: appointments.reason,
      doctorId: appointments.doctorUserId,
      doctorName: doctor.name,
    })
    .from(appointments)
    .innerJoin(doctor, eq(doctor.id, appointments.doctorUserId))
    .where(eq(appointments.patientUserId, patientId))
    .orderBy(desc(appointments.startsAt))
    .limit(limit);
}

export async function listPatientPrescriptions(db: Database, patientId: string, limit: number) {
  return db
    .select({
      id: prescriptions.id,
      issuedAt: prescriptions.issuedAt,
      status: prescriptions.status,
      doctorId: prescriptions.doctorUserId,
      doctorName: doctor.name,
      itemCount: sql<number>`(select count(*)::int from ${prescriptionItems} where ${prescriptionItems.prescriptionId} = ${prescriptions.id})`,
    })
    .from(prescriptions)
    .innerJoin(doctor, eq(doctor.id, prescriptions.doctorUserId))
    .where(eq(prescriptions.patientUserId, patientId))
    .orderBy(desc(prescriptions.issuedAt))
    .limit(limit);
}

export async function diagnosisCodeExists(db: Database, code: string): Promise<boolean> {
  const [row] = await db
    .select({ code: diagnosisCodes.code })
    .from(diagnosisCodes)
    .where(eq(diagnosisCodes.code, code))
    .limit(1);
  return row !== undefined;
}

export async function insertAllergy(db: Database, values: typeof patientAllergies.$inferInsert) {
  const [row] = await db.insert(patientAllergies).values(values).returning();
  return row!;
}

export async function insertCondition(db: Database, values: typeof patientConditions.$inferInsert) {
  const [row] = await db.insert(patientConditions).values(values).returning();
  return row!;
}

export async function insertMedication(db: Database, values: typeof patientMedications.$inferInsert) {
  const [row] = await db.insert(patientMedications).values(values).returning();
  return row!;
}

const listTables = {
  allergies: patientAllergies,
  conditions: patientConditions,
  medications: patientMedications,
} as const;
export type ChartListKind = keyof typeof listTables;

/** Ends an entry of one of the lists (kept as history); false when there is no live entry of that patient. */
export async function markListEntryRemoved(
  db: Database,
  kind: ChartListKind,
  patientId: string,
  entryId: string,
  by: string,
  now: Date,
): Promise<boolean> {
  const table = listTables[kind];
  const rows = await db
    .update(table)
    .set({ removedAt: now, removedByUserId: by })
    .where(and(eq(table.id, entryId), eq(table.patientUserId, patientId), isNull(table.removedAt)))
    .returning({ id: table.id });
  return rows.length > 0;
}
