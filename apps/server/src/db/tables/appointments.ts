import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './identity.js';

const instant = () => timestamp({ withTimezone: true, mode: 'date' });

/**
 * Appointments between a doctor and a patient. The statuses and the visit
 * times (check-in, admission, start, end) are what the dashboard reads; the
 * booking issue adds the services around them. Migration 0003 adds an
 * exclusion constraint (btree_gist) so that two live appointments of one
 * doctor can never overlap, whatever the application does.
 */
export const appointments = pgTable(
  'appointments',
  {
    id: uuid().primaryKey().defaultRandom(),
    doctorUserId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    patientUserId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    startsAt: instant().notNull(),
    endsAt: instant().notNull(),
    status: text()
      .$type<
        'requested' | 'confirmed' | 'checked_in' | 'in_progress' | 'completed' | 'cancelled' | 'no_show'
      >()
      .notNull()
      .default('confirmed'),
    reason: text(),
    createdByUserId: uuid().references(() => users.id, { onDelete: 'set null' }),
    checkedInAt: instant(),
    admittedAt: instant(),
    startedAt: instant(),
    endedAt: instant(),
    cancelledAt: instant(),
    cancellationReason: text(),
    /** Who cancelled, in which capacity (each reader is then told "you" or "the patient"). */
    cancelledBy: text().$type<'patient' | 'doctor' | 'staff'>(),
    createdAt: instant().notNull().defaultNow(),
    updatedAt: instant().notNull().defaultNow(),
  },
  (table) => [
    index('appointments_starts_at_idx').on(table.startsAt),
    index('appointments_doctor_starts_at_idx').on(table.doctorUserId, table.startsAt),
    index('appointments_patient_starts_at_idx').on(table.patientUserId, table.startsAt),
    check('appointments_time_order_check', sql`${table.endsAt} > ${table.startsAt}`),
    check(
      'appointments_status_check',
      sql`${table.status} in ('requested', 'confirmed', 'checked_in', 'in_progress', 'completed', 'cancelled', 'no_show')`,
    ),
  ],
);

/**
 * In-app notifications (the bell): one row per recipient, pushed over the real-time channel when
 * created; `readAt` set when the user reads them. `data` holds ids and times, never free text
 * written by another user.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text().notNull(),
    data: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    readAt: instant(),
    createdAt: instant().notNull().defaultNow(),
  },
  (table) => [index('notifications_user_created_idx').on(table.userId, table.createdAt)],
);

/**
 * Persisted reminder jobs (24 h and 1 h before a visit, and `intake` 24 h before when forms were
 * due at booking: sent only if one is still open): created with the booking, moved with a
 * reschedule, dropped with a cancellation. A worker claims due rows with `FOR UPDATE SKIP LOCKED`
 * and stamps `sentAt` in the same transaction as the email it stores, so a restart never sends one
 * twice and never loses one.
 */
export const appointmentReminders = pgTable(
  'appointment_reminders',
  {
    appointmentId: uuid()
      .notNull()
      .references(() => appointments.id, { onDelete: 'cascade' }),
    kind: text().$type<'24h' | '1h' | 'intake'>().notNull(),
    dueAt: instant().notNull(),
    sentAt: instant(),
    attempts: integer().notNull().default(0),
    lastError: text(),
  },
  (table) => [
    primaryKey({ columns: [table.appointmentId, table.kind] }),
    index('appointment_reminders_due_idx')
      .on(table.dueAt)
      .where(sql`${table.sentAt} is null`),
    check('appointment_reminders_kind_check', sql`${table.kind} in ('24h', '1h', 'intake')`),
  ],
);

/** Patients waiting for an earlier slot with a doctor; a cancellation notifies the first ones. */
export const waitlistEntries = pgTable(
  'waitlist_entries',
  {
    id: uuid().primaryKey().defaultRandom(),
    doctorUserId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    patientUserId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Only slots before this instant interest the patient (usually their current appointment). */
    before: instant(),
    notifiedAt: instant(),
    createdAt: instant().notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('waitlist_entries_doctor_patient_key').on(table.doctorUserId, table.patientUserId),
    index('waitlist_entries_doctor_created_idx').on(table.doctorUserId, table.createdAt),
  ],
);
