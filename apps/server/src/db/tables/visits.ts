import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { appointments } from './appointments.js';
import { files } from './files.js';
import { users } from './identity.js';

const instant = () => timestamp({ withTimezone: true, mode: 'date' });

/** One participant's kept connection readings (the `callReadings` jsonb of a visit). */
export interface StoredCallReading {
  role: 'doctor' | 'patient' | 'interpreter' | 'companion' | 'staff';
  worstRttMs: number | null;
  worstPacketLoss: number | null;
  relayed: boolean;
  lastIndicator: 'good' | 'weak' | 'lost' | 'unknown';
  /** ISO 8601 UTC. */
  updatedAt: string;
}

/**
 * One row per appointment that has been prepared or held as a video visit:
 * the pre-call check results (so staff see visits at risk), the doctor's
 * "running late" notice, the chat sequence counter and the participants'
 * presence times. The appointment keeps the status and the times the
 * dashboard reads (check-in, admitted, start, end).
 */
export const visits = pgTable(
  'visits',
  {
    appointmentId: uuid()
      .primaryKey()
      .references(() => appointments.id, { onDelete: 'cascade' }),
    /** Last chat sequence number handed out; `update … set chat_seq = chat_seq + 1 returning` serialises senders. */
    chatSeq: integer().notNull().default(0),
    /** The patient's latest device check (shared `DeviceCheckResult`). */
    deviceCheck: jsonb().$type<Record<string, unknown>>(),
    deviceCheckedAt: instant(),
    /** 'ok' | 'warning' | 'blocked', derived from `deviceCheck` when stored. */
    deviceRisk: text().$type<'ok' | 'warning' | 'blocked'>(),
    /** Minutes the doctor announced they are running late (null = on time). */
    runningLateMinutes: integer(),
    runningLateAt: instant(),
    /**
     * The call's connection readings per participant key (worst round trip and loss, relayed or
     * not, last indicator), kept for support; see `visit-call-readings.service.ts`.
     */
    callReadings: jsonb().$type<Record<string, StoredCallReading>>(),
    createdAt: instant().notNull().defaultNow(),
    updatedAt: instant().notNull().defaultNow(),
  },
  (table) => [
    check('visits_device_risk_check', sql`${table.deviceRisk} in ('ok', 'warning', 'blocked')`),
    check('visits_chat_seq_check', sql`${table.chatSeq} >= 0`),
  ],
);

/**
 * Guests (interpreter or companion) invited to one visit. The link carries a
 * random token stored as SHA-256; redeeming it (once, before `expiresAt`)
 * stamps `redeemedAt` and creates the guest's own visit-scoped session
 * (`sessionTokenHash`), which is what the guest's browser then presents.
 */
export const visitGuests = pgTable(
  'visit_guests',
  {
    id: uuid().primaryKey().defaultRandom(),
    appointmentId: uuid()
      .notNull()
      .references(() => appointments.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    role: text().$type<'interpreter' | 'companion'>().notNull(),
    language: text().notNull(),
    tokenHash: text().notNull(),
    expiresAt: instant().notNull(),
    redeemedAt: instant(),
    sessionTokenHash: text(),
    revokedAt: instant(),
    createdByUserId: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdAt: instant().notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('visit_guests_token_key').on(table.tokenHash),
    uniqueIndex('visit_guests_session_key').on(table.sessionTokenHash),
    index('visit_guests_appointment_idx').on(table.appointmentId),
    check('visit_guests_role_check', sql`${table.role} in ('interpreter', 'companion')`),
  ],
);

/**
 * In-visit chat: messages and shared files, numbered per visit (`seq`) so a
 * reconnecting client asks for what follows the last number it saw. The
 * sender's `clientId` makes a resent message a no-op (same row answered).
 * Kept in the record after the visit.
 */
export const visitMessages = pgTable(
  'visit_messages',
  {
    id: uuid().primaryKey().defaultRandom(),
    appointmentId: uuid()
      .notNull()
      .references(() => appointments.id, { onDelete: 'cascade' }),
    seq: integer().notNull(),
    senderUserId: uuid().references(() => users.id, { onDelete: 'set null' }),
    senderGuestId: uuid().references(() => visitGuests.id, { onDelete: 'set null' }),
    /** Display name when sent (a guest has no user row). */
    senderName: text().notNull(),
    /** `user:<id>` or `guest:<id>`: with `clientId`, the idempotency key. */
    senderKey: text().notNull(),
    clientId: text().notNull(),
    kind: text().$type<'text' | 'file'>().notNull(),
    body: text(),
    fileId: uuid().references(() => files.id, { onDelete: 'set null' }),
    fileName: text(),
    createdAt: instant().notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('visit_messages_seq_key').on(table.appointmentId, table.seq),
    uniqueIndex('visit_messages_client_key').on(table.appointmentId, table.senderKey, table.clientId),
    check('visit_messages_kind_check', sql`${table.kind} in ('text', 'file')`),
  ],
);
