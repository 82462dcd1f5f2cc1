import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import {
  appointments,
  doctorProfiles,
  doctorSpecialties,
  prescriptionItems,
  prescriptions,
  specialties,
  users,
} from '../../db/schema.js';

export type PrescriptionRow = typeof prescriptions.$inferSelect;
export type PrescriptionItemRow = typeof prescriptionItems.$inferSelect;

/** A prescription with its items and the people it names, as the presenter and the PDF need them. */
export interface PrescriptionRecord {
  prescription: PrescriptionRow;
  items: PrescriptionItemRow[];
  patient: { id: string; name: string; dateOfBirth: string | null; language: string; timeZone: string };
  doctor: { id: string; name: string; licenseNumber: string | null };
}

/** Whether the appointment exists and is between this doctor and this patient. */
export async function isAppointmentBetween(
  db: Database,
  appointmentId: string,
  doctorUserId: string,
  patientUserId: string,
): Promise<boolean> {
  const [appointment] = await db
    .select({ id: appointments.id })
    .from(appointments)
    .where(
      and(
        eq(appointments.id, appointmentId),
        eq(appointments.doctorUserId, doctorUserId),
        eq(appointments.patientUserId, patientUserId),
      ),
    )
    .limit(1);
  return appointment !== undefined;
}

export async function insertPrescription(
  db: Database,
  values: typeof prescriptions.$inferInsert,
  items: Omit<typeof prescriptionItems.$inferInsert, 'prescriptionId'>[],
): Promise<PrescriptionRow> {
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(prescriptions).values(values).returning();
    if (row === undefined) {
      throw new Error('insertPrescription: insert returned nothing');
    }
    await tx.insert(prescriptionItems).values(items.map((item) => ({ ...item, prescriptionId: row.id })));
    return row;
  });
}

async function loadPeople(
  db: Database,
  patientUserId: string,
  doctorUserId: string,
): Promise<Pick<PrescriptionRecord, 'patient' | 'doctor'> | null> {
  const rows = await db
    .select({
      id: users.id,
      name: users.name,
      dateOfBirth: users.dateOfBirth,
      language: users.language,
      timeZone: users.timeZone,
      licenseNumber: doctorProfiles.licenseNumber,
    })
    .from(users)
    .leftJoin(doctorProfiles, eq(doctorProfiles.userId, users.id))
    .where(inArray(users.id, [patientUserId, doctorUserId]));
  const patient = rows.find((row) => row.id === patientUserId);
  const doctor = rows.find((row) => row.id === doctorUserId);
  if (patient === undefined || doctor === undefined) {
    return null;
  }
  return {
    patient: {
      id: patient.id,
      name: patient.name,
      dateOfBirth: patient.dateOfBirth,
      language: patient.language,
      timeZone: patient.timeZone,
    },
    doctor: { id: doctor.id, name: doctor.name, licenseNumber: doctor.licenseNumber },
  };
}

async function loadRecord(
  db: Database,
  row: PrescriptionRow | undefined,
): Promise<PrescriptionRecord | null> {
  if (row === undefined) {
    return null;
  }
  const [items, people] = [
    await db
      .select()
      .from(prescriptionItems)
      .where(eq(prescriptionItems.prescriptionId, row.id))
      .orderBy(asc(prescriptionItems.position)),
    await loadPeople(db, row.patientUserId, row.doctorUserId),
  ];
  return people === null ? null : { prescription: row, items, ...people };
}

export async function findPrescriptionRecord(db: Database, id: string): Promise<PrescriptionRecord | null> {
  const [row] = await db.select().from(prescriptions).where(eq(prescriptions.id, id)).limit(1);
  return loadRecord(db, row);
}

export async function findPrescriptionByCode(db: Database, code: string): Promise<PrescriptionRecord | null> {
  const [row] = await db
    .select()
    .from(prescriptions)
    .where(eq(prescriptions.verificationCode, code))
    .limit(1);
  return loadRecord(db, row);
}

/** A patient's prescriptions, newest first, with their doctor and item medications (at most 200). */
export async function listPatientPrescriptions(db: Database, patientUserId: string) {
  return db
    .select({
      id: prescriptions.id,
      verificationCode: prescriptions.verificationCode,
      status: prescriptions.status,
      issuedAt: prescriptions.issuedAt,
      appointmentId: prescriptions.appointmentId,
      doctorId: users.id,
      doctorName: users.name,
      medications: sql<
        string[]
      >`coalesce((select array_agg(${prescriptionItems.medication} order by ${prescriptionItems.position}) from ${prescriptionItems} where ${prescriptionItems.prescriptionId} = ${prescriptions.id}), '{}')`,
    })
    .from(prescriptions)
    .innerJoin(users, eq(users.id, prescriptions.doctorUserId))
    .where(eq(prescriptions.patientUserId, patientUserId))
    .orderBy(desc(prescriptions.issuedAt), desc(prescriptions.id))
    .limit(200);
}

/** Cancels an active prescription; null when it was not active any more (a concurrent cancel). */
export async function cancelPrescriptionRow(
  db: Database,
  id: string,
  at: Date,
  reason: string,
): Promise<PrescriptionRow | null> {
  const [row] = await db
    .update(prescriptions)
    .set({ status: 'cancelled', cancelledAt: at, cancellationReason: reason })
    .where(sql`${prescriptions.id} = ${id} and ${prescriptions.status} = 'active'`)
    .returning();
  return row ?? null;
}

/** The doctor's specialties, in the language asked for, for the PDF heading. */
export async function findDoctorSpecialtyNames(db: Database, doctorUserId: string, language: 'es' | 'en') {
  const rows = await db
    .select({ nameEs: specialties.nameEs, nameEn: specialties.nameEn })
    .from(doctorSpecialties)
    .innerJoin(specialties, eq(specialties.id, doctorSpecialties.specialtyId))
    .where(eq(doctorSpecialties.doctorUserId, doctorUserId))
    .orderBy(asc(specialties.nameEs));
  return rows.map((row) => (language === 'es' ? row.nameEs : row.nameEn));
}
