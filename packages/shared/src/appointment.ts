import { z } from 'zod';
import { appointmentStatuses, pageOf } from './common.js';

/** An appointment as every list and page shows it (issue 6), and a page of them. */

const personSchema = z.object({ id: z.string(), name: z.string() });

export const appointmentSchema = z.object({
  id: z.string(),
  doctor: personSchema.extend({ timeZone: z.string() }),
  patient: personSchema,
  startsAt: z.string(),
  endsAt: z.string(),
  status: z.enum(appointmentStatuses),
  reason: z.string().nullable(),
  createdAt: z.string(),
  cancelledAt: z.string().nullable(),
  cancellationReason: z.string().nullable(),
});
export type Appointment = z.infer<typeof appointmentSchema>;
export const appointmentPageSchema = pageOf(appointmentSchema);
export type AppointmentPage = z.infer<typeof appointmentPageSchema>;
