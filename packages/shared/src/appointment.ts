import { z } from 'zod';
import { appointmentStatuses, pageOf } from './common.js';

/** An appointment as every list and page shows it, and a page of them. */

const personSchema = z.object({ id: z.string(), name: z.string() });

export const appointmentSchema = z.object({
  id: z.string(),
  doctor: personSchema.extend({ timeZone: z.string() }),
  patient: personSchema,
  startsAt: z.string(),
  endsAt: z.string(),
  status: z.enum(appointmentStatuses),
  /** The reason the patient gave; null when none was given or when it is withheld from the reader. */
  reason: z.string().nullable(),
  /**
   * True when a reason exists but this reader may not see it (staff, unless the clinic's privacy
   * setting allows it); the visit's doctor and patient always read it. Optional so an answer
   * without it still parses; this server always sends it.
   */
  isReasonWithheld: z.boolean().optional(),
  createdAt: z.string(),
  cancelledAt: z.string().nullable(),
  cancellationReason: z.string().nullable(),
  /**
   * Who cancelled, in which capacity (null when not cancelled, or cancelled before this was kept),
   * so each reader is told "you cancelled" or who did. Optional so an answer without it still
   * parses; this server always sends it.
   */
  cancelledBy: z.enum(['patient', 'doctor', 'staff']).nullable().optional(),
});
export type Appointment = z.infer<typeof appointmentSchema>;
export const appointmentPageSchema = pageOf(appointmentSchema);
export type AppointmentPage = z.infer<typeof appointmentPageSchema>;
