import { z } from 'zod';
import {
  appointmentStatuses,
  calendarDateSchema,
  listQuerySchema,
  sortOrderSchema,
  timeZoneSchema,
  type AppointmentStatus,
} from './common.js';

/**
 * Contracts of availability, slots and appointments. Instants are
 * ISO 8601 strings in UTC; wall-clock times (`HH:MM`) belong to an explicit
 * IANA zone. Messages are translation keys (`validation.*`).
 */

// ---------------------------------------------------------------- availability rules

/** ISO weekday: 1 = Monday … 7 = Sunday. */
export const weekdaySchema = z.number({ message: 'validation.weekday' }).int().min(1).max(7);

/** A wall-clock time `HH:MM` (00:00–23:59; `24:00` allowed as the end of a range). */
export const wallTimeSchema = z
  .string()
  .regex(/^(?:[01]\d|2[0-3]):[0-5]\d$|^24:00$/, { message: 'validation.time' });

/** Minutes since midnight of a `HH:MM` wall time (`24:00` → 1440). */
export function minutesOfWallTime(time: string): number {
  const [hours = '0', minutes = '0'] = time.split(':');
  return Number(hours) * 60 + Number(minutes);
}

export const availabilityRuleInputSchema = z
  .object({
    weekday: weekdaySchema,
    start: wallTimeSchema,
    end: wallTimeSchema,
    validFrom: calendarDateSchema.nullish(),
    validUntil: calendarDateSchema.nullish(),
  })
  .refine((rule) => minutesOfWallTime(rule.end) > minutesOfWallTime(rule.start), {
    message: 'validation.timeOrder',
    path: ['end'],
  })
  .refine((rule) => !rule.validFrom || !rule.validUntil || rule.validUntil >= rule.validFrom, {
    message: 'validation.dateRange',
    path: ['validUntil'],
  });
export type AvailabilityRuleInput = z.infer<typeof availabilityRuleInputSchema>;

/**
 * `PUT /doctors/:id/availability/rules`: the complete weekly schedule, which
 * replaces the previous one. Times are in the doctor's current zone; ranges
 * of one weekday whose dates of validity meet must not overlap (400).
 */
export const replaceAvailabilityRulesRequestSchema = z.object({
  rules: z.array(availabilityRuleInputSchema).max(100),
});
export type ReplaceAvailabilityRulesRequest = z.infer<typeof replaceAvailabilityRulesRequestSchema>;

export const availabilityRuleSchema = z.object({
  id: z.string(),
  weekday: z.number(),
  start: z.string(),
  end: z.string(),
  /** The zone the wall-clock times are in (the doctor's zone when saved). */
  timeZone: z.string(),
  validFrom: z.string().nullable(),
  validUntil: z.string().nullable(),
});
export type AvailabilityRule = z.infer<typeof availabilityRuleSchema>;

export const availabilityRulesResponseSchema = z.object({
  doctorId: z.string(),
  /** The doctor's current zone, in which new rules are saved. */
  timeZone: z.string(),
  rules: z.array(availabilityRuleSchema),
});
export type AvailabilityRulesResponse = z.infer<typeof availabilityRulesResponseSchema>;

// ---------------------------------------------------------------- availability exceptions

export const availabilityExceptionKinds = ['time_off', 'extra'] as const;
export type AvailabilityExceptionKind = (typeof availabilityExceptionKinds)[number];

export const createAvailabilityExceptionRequestSchema = z
  .object({
    kind: z.enum(availabilityExceptionKinds, { message: 'validation.kind' }),
    startsAt: z.iso.datetime({ offset: true, message: 'validation.dateTime' }),
    endsAt: z.iso.datetime({ offset: true, message: 'validation.dateTime' }),
    reason: z.string().trim().max(500).nullish(),
  })
  .refine((value) => Date.parse(value.endsAt) > Date.parse(value.startsAt), {
    message: 'validation.timeOrder',
    path: ['endsAt'],
  })
  .refine((value) => Date.parse(value.endsAt) - Date.parse(value.startsAt) <= 366 * 24 * 3_600_000, {
    message: 'validation.dateRange',
    path: ['endsAt'],
  });
export type CreateAvailabilityExceptionRequest = z.infer<typeof createAvailabilityExceptionRequestSchema>;

export const availabilityExceptionListQuerySchema = z.object({
  from: z.iso.datetime({ offset: true, message: 'validation.dateTime' }).optional(),
  to: z.iso.datetime({ offset: true, message: 'validation.dateTime' }).optional(),
});
export type AvailabilityExceptionListQuery = z.infer<typeof availabilityExceptionListQuerySchema>;

export const availabilityExceptionSchema = z.object({
  id: z.string(),
  kind: z.enum(availabilityExceptionKinds),
  startsAt: z.string(),
  endsAt: z.string(),
  reason: z.string().nullable(),
  createdAt: z.string(),
});
export type AvailabilityException = z.infer<typeof availabilityExceptionSchema>;
export const availabilityExceptionListSchema = z.object({ data: z.array(availabilityExceptionSchema) });

// ---------------------------------------------------------------- slots

/** The longest window `GET /doctors/:id/slots` answers at once. */
export const maxSlotWindowDays = 31;

/** `GET /doctors/:id/slots`: free slots starting in [from, to); `tz` only labels them. */
export const slotsQuerySchema = z.object({
  from: z.iso.datetime({ offset: true, message: 'validation.dateTime' }),
  to: z.iso.datetime({ offset: true, message: 'validation.dateTime' }),
  tz: timeZoneSchema.optional(),
});
export type SlotsQuery = z.infer<typeof slotsQuerySchema>;

/** One free slot: instants plus wall-clock labels (`YYYY-MM-DDTHH:MM±HH:MM`) in both zones. */
export const slotSchema = z.object({
  startsAt: z.string(),
  endsAt: z.string(),
  /** Start in the viewer's zone (`tz`, else the viewer's profile zone). */
  localStart: z.string(),
  /** Start in the doctor's zone. */
  doctorLocalStart: z.string(),
});
export type Slot = z.infer<typeof slotSchema>;

export const slotsResponseSchema = z.object({
  doctorId: z.string(),
  doctorTimeZone: z.string(),
  viewerTimeZone: z.string(),
  visitMinutes: z.number(),
  slots: z.array(slotSchema),
});
export type SlotsResponse = z.infer<typeof slotsResponseSchema>;

// ---------------------------------------------------------------- appointments

/** The only status changes allowed; completed, cancelled and no-show are final. */
export const appointmentTransitions: Readonly<Record<AppointmentStatus, readonly AppointmentStatus[]>> = {
  requested: ['confirmed', 'cancelled'],
  confirmed: ['checked_in', 'cancelled', 'no_show'],
  checked_in: ['in_progress', 'cancelled', 'no_show'],
  in_progress: ['completed'],
  completed: [],
  cancelled: [],
  no_show: [],
};

/** True when an appointment in `from` may move to `to`. */
export function canTransitionAppointment(from: AppointmentStatus, to: AppointmentStatus): boolean {
  return appointmentTransitions[from].includes(to);
}

/** Statuses whose appointments hold their slot (the exclusion constraint ignores the others). */
export const liveAppointmentStatuses = appointmentStatuses.filter(
  (status) => status !== 'cancelled' && status !== 'no_show',
);

export const appointmentReasonSchema = z
  .string()
  .trim()
  .min(3, { message: 'validation.reasonTooShort' })
  .max(500, { message: 'validation.reasonTooLong' });

/** `POST /appointments`: `patientId` only for staff booking for a patient (absent or own for patients). */
export const bookAppointmentRequestSchema = z.object({
  doctorId: z.uuid({ message: 'validation.id' }),
  startsAt: z.iso.datetime({ offset: true, message: 'validation.dateTime' }),
  reason: appointmentReasonSchema,
  patientId: z.uuid({ message: 'validation.id' }).optional(),
});
export type BookAppointmentRequest = z.infer<typeof bookAppointmentRequestSchema>;

export const cancelAppointmentRequestSchema = z.object({
  reason: z.string().trim().min(1).max(500).optional(),
});
export type CancelAppointmentRequest = z.infer<typeof cancelAppointmentRequestSchema>;

export const rescheduleAppointmentRequestSchema = z.object({
  startsAt: z.iso.datetime({ offset: true, message: 'validation.dateTime' }),
});
export type RescheduleAppointmentRequest = z.infer<typeof rescheduleAppointmentRequestSchema>;

export const changeAppointmentStatusRequestSchema = z.object({
  status: z.enum(appointmentStatuses, { message: 'validation.status' }),
});
export type ChangeAppointmentStatusRequest = z.infer<typeof changeAppointmentStatusRequestSchema>;

export const appointmentListQuerySchema = listQuerySchema.extend({
  status: z.enum(appointmentStatuses, { message: 'validation.status' }).optional(),
  /** Appointments starting at or after this instant. */
  from: z.iso.datetime({ offset: true, message: 'validation.dateTime' }).optional(),
  /** Appointments starting before this instant. */
  to: z.iso.datetime({ offset: true, message: 'validation.dateTime' }).optional(),
  doctorId: z.uuid({ message: 'validation.id' }).optional(),
  patientId: z.uuid({ message: 'validation.id' }).optional(),
  sort: z.enum(['startsAt'], { message: 'validation.sort' }).default('startsAt'),
  order: sortOrderSchema,
});
export type AppointmentListQuery = z.infer<typeof appointmentListQuerySchema>;

/** `details` of a 409 SLOT_TAKEN: the next free slots of the same doctor (up to three). */
export const slotTakenDetailsSchema = z.object({
  nextSlots: z.array(z.object({ startsAt: z.string(), endsAt: z.string() })),
});
export type SlotTakenDetails = z.infer<typeof slotTakenDetailsSchema>;
