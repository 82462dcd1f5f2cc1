import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
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
      .$type<'requested' | 'confirmed' | 'checked_in' | 'in_progress' | 'completed' | 'cancelled' | 'no_show'>()
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
