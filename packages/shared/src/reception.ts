import { z } from 'zod';
import { appointmentStatuses, calendarDateSchema, languageSchema, timeZoneSchema } from './common.js';
import { dateOfBirthSchema, emailSchema, personNameSchema, phoneSchema } from './auth.js';

/**
 * Contracts of reception's day: every doctor of the clinic on one day, side by side,
 * with their appointments and free times; finding a patient by name, phone or date of birth; and
 * registering a patient who calls or walks in (the invitation email lets them set a password).
 * Messages are translation keys (`validation.*`).
 */

// ---------------------------------------------------------------- the day

/** `GET /clinic-day?date=YYYY-MM-DD`: the day in the reader's account zone (today when absent). */
export const clinicDayQuerySchema = z.object({
  date: calendarDateSchema.optional(),
});
export type ClinicDayQuery = z.infer<typeof clinicDayQuerySchema>;

export const clinicDayAppointmentSchema = z.object({
  id: z.string(),
  patient: z.object({ id: z.string(), name: z.string() }),
  startsAt: z.string(),
  endsAt: z.string(),
  /** confirmed = not arrived yet, checked_in = in the waiting room, in_progress = in the call. */
  status: z.enum(appointmentStatuses),
});
export type ClinicDayAppointment = z.infer<typeof clinicDayAppointmentSchema>;

export const clinicDayDoctorSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** Specialty names in the reader's language. */
  specialties: z.array(z.string()),
  visitMinutes: z.number(),
  appointments: z.array(clinicDayAppointmentSchema),
  /** Free slots starting within the day (rules, time off, minimum notice and bookings applied). */
  freeSlots: z.array(z.object({ startsAt: z.string(), endsAt: z.string() })),
});
export type ClinicDayDoctor = z.infer<typeof clinicDayDoctorSchema>;

export const clinicDaySchema = z.object({
  date: z.string(),
  /** The reader's account zone, which bounds the day. */
  timeZone: z.string(),
  /** The day's instants: [from, to). */
  from: z.string(),
  to: z.string(),
  doctors: z.array(clinicDayDoctorSchema),
});
export type ClinicDay = z.infer<typeof clinicDaySchema>;

// ---------------------------------------------------------------- finding a patient

/** `GET /patients/lookup?q=`: name, email, phone (digits) or date of birth (`YYYY-MM-DD` or `DD/MM/YYYY`). */
export const patientLookupQuerySchema = z.object({
  q: z.string().trim().min(2, { message: 'validation.searchTooShort' }).max(100),
});
export type PatientLookupQuery = z.infer<typeof patientLookupQuerySchema>;

export const patientMatchSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  dateOfBirth: z.string().nullable(),
  /** False while the patient has not set a password (registered by reception). */
  hasSignedUp: z.boolean(),
});
export type PatientMatch = z.infer<typeof patientMatchSchema>;
export const patientLookupResultSchema = z.object({ data: z.array(patientMatchSchema) });
export type PatientLookupResult = z.infer<typeof patientLookupResultSchema>;

// ---------------------------------------------------------------- registering a patient

/** `POST /patients`: a patient who calls or walks in; they get an invitation email. */
export const registerPatientRequestSchema = z.object({
  name: personNameSchema,
  email: emailSchema,
  phone: phoneSchema,
  dateOfBirth: dateOfBirthSchema,
  language: languageSchema,
  /** The patient's zone; the clinic's when absent. */
  timeZone: timeZoneSchema.optional(),
});
export type RegisterPatientRequest = z.infer<typeof registerPatientRequestSchema>;
