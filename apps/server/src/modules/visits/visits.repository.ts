import type { AppointmentStatus } from '@telemedicina/shared/common';
import { and, asc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { isUniqueViolation } from '../../lib/database-errors.js';
import {
  appointments,
  auditEvents,
  files,
  users,
  visitGuests,
  visitMessages,
  visits,
} from '../../db/schema.js';

export type VisitRow = typeof visits.$inferSelect;
export type VisitGuestRow = typeof visitGuests.$inferSelect;
export type VisitMessageRow = typeof visitMessages.$inferSelect;
type AppointmentRow = typeof appointments.$inferSelect;

/** A chat message with what its presenter shows of an attached file. */
export interface VisitMessageWithFile extends VisitMessageRow {
  fileContentType: string | null;
  fileSize: number | null;
}

// ---------------------------------------------------------------- visits rows

export async function findVisit(db: Database, appointmentId: string): Promise<VisitRow | null> {
  const [row] = await db.select().from(visits).where(eq(visits.appointmentId, appointmentId));
  return row ?? null;
}

export async function findVisits(db: Database, appointmentIds: readonly string[]): Promise<VisitRow[]> {
  if (appointmentIds.length === 0) {
    return [];
  }
  return db
    .select()
    .from(visits)
    .where(inArray(visits.appointmentId, [...appointmentIds]));
}

/** Stores the patient's device check (creating the visit row on first use). */
export async function upsertDeviceCheck(
  db: Database,
  appointmentId: string,
  check: { result: Record<string, unknown>; risk: 'ok' | 'warning' | 'blocked'; at: Date },
): Promise<VisitRow> {
  const [row] = await db
    .insert(visits)
    .values({
      appointmentId,
      deviceCheck: check.result,
      deviceRisk: check.risk,
      deviceCheckedAt: check.at,
      createdAt: check.at,
      updatedAt: check.at,
    })
    .onConflictDoUpdate({
      target: visits.appointmentId,
      set: {
        deviceCheck: check.result,
        deviceRisk: check.risk,
        deviceCheckedAt: check.at,
        updatedAt: check.at,
      },
    })
    .returning();
  if (row === undefined) {
    throw new Error('upsert into visits returned nothing');
  }
  return row;
}

/** Sets (or clears, with null) the running-late notice on these visits. */
export async function setRunningLate(
  db: Database,
  appointmentIds: readonly string[],
  minutes: number | null,
  at: Date,
): Promise<void> {
  if (appointmentIds.length === 0) {
    return;
  }
  await db
    .insert(visits)
    .values(
      appointmentIds.map((appointmentId) => ({
        appointmentId,
        runningLateMinutes: minutes,
        runningLateAt: minutes === null ? null : at,
        createdAt: at,
        updatedAt: at,
      })),
    )
    .onConflictDoUpdate({
      target: visits.appointmentId,
      set: {
        runningLateMinutes: minutes,
        runningLateAt: minutes === null ? null : at,
        updatedAt: at,
      },
    });
}

// ---------------------------------------------------------------- appointments of a visit

/** A doctor's appointment of one day with the patient's name, for the queue and the waiting room. */
export interface DayAppointment extends AppointmentRow {
  patientName: string;
}

/**
 * The doctor's appointments starting on `date` (YYYY-MM-DD) as counted in
 * `timeZone`, in the given statuses, by start time.
 */
export async function listDoctorDayAppointments(
  db: Database,
  doctorId: string,
  date: string,
  timeZone: string,
  statuses: readonly AppointmentStatus[],
): Promise<DayAppointment[]> {
  const rows = await db
    .select({ appointment: appointments, patientName: users.name })
    .from(appointments)
    .innerJoin(users, eq(users.id, appointments.patientUserId))
    .where(
      and(
        eq(appointments.doctorUserId, doctorId),
        inArray(appointments.status, [...statuses]),
        sql`${appointments.startsAt} >= (${date}::date::timestamp at time zone ${timeZone})`,
        sql`${appointments.startsAt} < ((${date}::date + 1)::timestamp at time zone ${timeZone})`,
      ),
    )
    .orderBy(asc(appointments.startsAt), asc(appointments.id));
  return rows.map((row) => ({ ...row.appointment, patientName: row.patientName }));
}

/**
 * Changes an appointment's visit status and times only while it is in one
 * of `fromStatuses` (null when a concurrent change got there first).
 */
export async function updateVisitAppointment(
  db: Database,
  id: string,
  fromStatuses: readonly AppointmentStatus[],
  changes: Partial<
    Pick<
      typeof appointments.$inferInsert,
      'status' | 'checkedInAt' | 'admittedAt' | 'startedAt' | 'endedAt' | 'updatedAt'
    >
  >,
): Promise<AppointmentRow | null> {
  const [row] = await db
    .update(appointments)
    .set(changes)
    .where(and(eq(appointments.id, id), inArray(appointments.status, [...fromStatuses])))
    .returning();
  return row ?? null;
}

/** Stamps `started_at` the first time the doctor and the patient are in the call together. */
export async function markVisitStarted(db: Database, id: string, at: Date): Promise<boolean> {
  const rows = await db
    .update(appointments)
    .set({ startedAt: at, updatedAt: at })
    .where(
      and(eq(appointments.id, id), eq(appointments.status, 'in_progress'), isNull(appointments.startedAt)),
    )
    .returning({ id: appointments.id });
  return rows.length > 0;
}

// ---------------------------------------------------------------- chat

const messageWithFile = { message: visitMessages, fileContentType: files.contentType, fileSize: files.size };

function flattenMessage(row: {
  message: VisitMessageRow;
  fileContentType: string | null;
  fileSize: number | null;
}): VisitMessageWithFile {
  return { ...row.message, fileContentType: row.fileContentType, fileSize: row.fileSize };
}

/** Messages after `after`, oldest first. */
export async function listVisitMessages(
  db: Database,
  appointmentId: string,
  after: number,
  limit: number,
): Promise<VisitMessageWithFile[]> {
  const rows = await db
    .select(messageWithFile)
    .from(visitMessages)
    .leftJoin(files, eq(files.id, visitMessages.fileId))
    .where(and(eq(visitMessages.appointmentId, appointmentId), gt(visitMessages.seq, after)))
    .orderBy(asc(visitMessages.seq))
    .limit(limit);
  return rows.map(flattenMessage);
}

async function findMessageByClientId(
  db: Database,
  appointmentId: string,
  senderKey: string,
  clientId: string,
): Promise<VisitMessageWithFile | null> {
  const [row] = await db
    .select(messageWithFile)
    .from(visitMessages)
    .leftJoin(files, eq(files.id, visitMessages.fileId))
    .where(
      and(
        eq(visitMessages.appointmentId, appointmentId),
        eq(visitMessages.senderKey, senderKey),
        eq(visitMessages.clientId, clientId),
      ),
    );
  return row === undefined ? null : flattenMessage(row);
}

export type NewVisitMessage = Omit<typeof visitMessages.$inferInsert, 'id' | 'seq'>;

/**
 * Appends a chat message with the visit's next sequence number, or answers
 * the message already stored under the sender's `clientId` (a resend).
 *
 * One statement, so one round trip: the counter row is created or bumped
 * (`insert … on conflict do update set chat_seq = chat_seq + 1 returning`),
 * which locks it until the statement ends, so concurrent senders are
 * numbered one after the other; the message takes that number. A resend
 * fails on the unique (visit, sender, client id) index, which aborts the
 * whole statement — the counter too, so there is never a gap — and the
 * stored original is read instead. `created` says which of the two happened.
 */
export async function appendVisitMessage(
  db: Database,
  message: NewVisitMessage,
  file: { contentType: string; size: number } | null,
): Promise<{ message: VisitMessageWithFile; created: boolean }> {
  const createdAt = message.createdAt ?? new Date();
  try {
    const result = await db.execute(sql`
      with counter as (
        insert into visits (appointment_id, chat_seq) values (${message.appointmentId}, 1)
        on conflict (appointment_id) do update set chat_seq = visits.chat_seq + 1
        returning chat_seq
      )
      insert into visit_messages (appointment_id, seq, sender_user_id, sender_guest_id, sender_name,
                                  sender_key, client_id, kind, body, file_id, file_name, created_at)
      select ${message.appointmentId}, counter.chat_seq, ${message.senderUserId ?? null},
             ${message.senderGuestId ?? null}, ${message.senderName}, ${message.senderKey}, ${message.clientId},
             ${message.kind}, ${message.body ?? null}, ${message.fileId ?? null}, ${message.fileName ?? null},
             ${createdAt.toISOString()}::timestamptz
      from counter
      returning id, seq`);
    const [row] = (result as { rows: { id: string; seq: number }[] }).rows;
    if (row === undefined) {
      throw new Error('insert into visit_messages returned nothing');
    }
    return {
      message: {
        id: row.id,
        appointmentId: message.appointmentId,
        seq: Number(row.seq),
        senderUserId: message.senderUserId ?? null,
        senderGuestId: message.senderGuestId ?? null,
        senderName: message.senderName,
        senderKey: message.senderKey,
        clientId: message.clientId,
        kind: message.kind,
        body: message.body ?? null,
        fileId: message.fileId ?? null,
        fileName: message.fileName ?? null,
        createdAt,
        fileContentType: file?.contentType ?? null,
        fileSize: file?.size ?? null,
      },
      created: true,
    };
  } catch (error) {
    if (!isUniqueViolation(error)) {
      throw error;
    }
    const original = await findMessageByClientId(
      db,
      message.appointmentId,
      message.senderKey,
      message.clientId,
    );
    if (original === null) {
      throw error;
    }
    return { message: original, created: false };
  }
}

/** A stored file shared in this visit's chat (and so readable by its participants), or null. */
export async function findVisitFile(
  db: Database,
  appointmentId: string,
  fileId: string,
): Promise<{ file: typeof files.$inferSelect; fileName: string | null } | null> {
  const [row] = await db
    .select({ file: files, fileName: visitMessages.fileName })
    .from(visitMessages)
    .innerJoin(files, eq(files.id, visitMessages.fileId))
    .where(and(eq(visitMessages.appointmentId, appointmentId), eq(visitMessages.fileId, fileId)))
    .limit(1);
  return row ?? null;
}

// ---------------------------------------------------------------- guests

export async function insertVisitGuest(
  db: Database,
  guest: typeof visitGuests.$inferInsert,
): Promise<VisitGuestRow> {
  const [row] = await db.insert(visitGuests).values(guest).returning();
  if (row === undefined) {
    throw new Error('insert into visit_guests returned nothing');
  }
  return row;
}

export async function listVisitGuests(db: Database, appointmentId: string): Promise<VisitGuestRow[]> {
  return db
    .select()
    .from(visitGuests)
    .where(eq(visitGuests.appointmentId, appointmentId))
    .orderBy(asc(visitGuests.createdAt), asc(visitGuests.id));
}

export async function findVisitGuest(db: Database, id: string): Promise<VisitGuestRow | null> {
  const [row] = await db.select().from(visitGuests).where(eq(visitGuests.id, id));
  return row ?? null;
}

export async function findVisitGuestByTokenHash(
  db: Database,
  tokenHash: string,
): Promise<VisitGuestRow | null> {
  const [row] = await db.select().from(visitGuests).where(eq(visitGuests.tokenHash, tokenHash));
  return row ?? null;
}

/**
 * Redeems an invitation once: stamps `redeemed_at` and stores the guest's
 * session token hash only if the link is unused, unrevoked and unexpired at
 * `now` — one statement, so two browsers racing with the same link cannot
 * both get in.
 */
export async function redeemVisitGuest(
  db: Database,
  tokenHash: string,
  sessionTokenHash: string,
  now: Date,
): Promise<VisitGuestRow | null> {
  const [row] = await db
    .update(visitGuests)
    .set({ redeemedAt: now, sessionTokenHash })
    .where(
      and(
        eq(visitGuests.tokenHash, tokenHash),
        isNull(visitGuests.redeemedAt),
        isNull(visitGuests.revokedAt),
        gt(visitGuests.expiresAt, now),
      ),
    )
    .returning();
  return row ?? null;
}

/** A live guest session: redeemed, not revoked, not expired. */
export async function findGuestBySession(
  db: Database,
  sessionTokenHash: string,
  now: Date,
): Promise<VisitGuestRow | null> {
  const [row] = await db
    .select()
    .from(visitGuests)
    .where(
      and(
        eq(visitGuests.sessionTokenHash, sessionTokenHash),
        isNull(visitGuests.revokedAt),
        gt(visitGuests.expiresAt, now),
      ),
    );
  return row ?? null;
}

/** Of these guest ids, those still live at `now`. */
export async function filterLiveGuestIds(
  db: Database,
  guestIds: readonly string[],
  now: Date,
): Promise<Set<string>> {
  if (guestIds.length === 0) {
    return new Set();
  }
  const rows = await db
    .select({ id: visitGuests.id })
    .from(visitGuests)
    .where(
      and(
        inArray(visitGuests.id, [...guestIds]),
        isNull(visitGuests.revokedAt),
        gt(visitGuests.expiresAt, now),
      ),
    );
  return new Set(rows.map((row) => row.id));
}

export async function revokeVisitGuest(db: Database, id: string, now: Date): Promise<VisitGuestRow | null> {
  const [row] = await db
    .update(visitGuests)
    .set({ revokedAt: now })
    .where(and(eq(visitGuests.id, id), isNull(visitGuests.revokedAt)))
    .returning();
  return row ?? null;
}

/**
 * Guests the doctor admitted. Admission is an audited step
 * (`visit.guest_admitted`, target the guest): the trail is the durable record
 * every instance shares, read through its (target type, target id) index.
 */
export async function findAdmittedGuestIds(db: Database, guestIds: readonly string[]): Promise<Set<string>> {
  if (guestIds.length === 0) {
    return new Set();
  }
  const rows = await db
    .selectDistinct({ id: auditEvents.targetId })
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.targetType, 'visit_guest'),
        inArray(auditEvents.targetId, [...guestIds]),
        eq(auditEvents.action, 'visit.guest_admitted'),
      ),
    );
  return new Set(rows.map((row) => row.id ?? ''));
}
