import { z } from 'zod';
import { appointmentStatusSchema, roleSummarySchema } from './common.js';

/** The header's global search, on every signed-in page. */

export const globalSearchQuerySchema = z.object({
  q: z.string().trim().min(2, { message: 'validation.searchTooShort' }).max(200),
});
export type GlobalSearchQuery = z.infer<typeof globalSearchQuerySchema>;

/**
 * `GET /search?q=`: up to 5 hits per group, each group present only when the
 * caller may see that kind of record (users: `users.read`; patients:
 * `patients.read.admin`, or `records.read` limited to the doctor's own
 * patients; appointments: `appointments.read.any`, or `appointments.read.own`).
 */
export const globalSearchResponseSchema = z.object({
  users: z
    .array(
      z.object({ id: z.string(), name: z.string(), email: z.string(), roles: z.array(roleSummarySchema) }),
    )
    .optional(),
  patients: z.array(z.object({ id: z.string(), name: z.string(), email: z.string() })).optional(),
  appointments: z
    .array(
      z.object({
        id: z.string(),
        startsAt: z.string(),
        status: appointmentStatusSchema,
        doctorName: z.string(),
        patientName: z.string(),
      }),
    )
    .optional(),
});
export type GlobalSearchResponse = z.infer<typeof globalSearchResponseSchema>;
