import { z } from 'zod';
import { personNameSchema, phoneSchema, userSchema } from './auth.js';
import { displayText } from './display-text.js';
import { clinicSettingsSchema, type ClinicSettings } from './clinic-settings.js';
import {
  appointmentStatuses,
  calendarDateSchema,
  languageSchema,
  listQuerySchema,
  pageOf,
  roleSummarySchema,
  sortOrderSchema,
  timeZoneSchema,
  type AppointmentStatus,
} from './common.js';

/**
 * Contracts of the administration area: users, roles, specialties,
 * clinic settings (their schema: clinic-settings.ts), audit log, dashboard and the outbox (the
 * header's global search: search.ts).
 * Every list endpoint takes `listQuerySchema` (page, pageSize ≤ 100, q) plus
 * its own filters and a validated `sort`/`order`; bad values answer 400
 * VALIDATION_FAILED with the `validation.*` message keys used here.
 */

// ---------------------------------------------------------------- users

/** `locked` = active account with a sign-in lockout in force (derived, not stored). */
export const adminUserStatusFilterSchema = z.enum(['active', 'pending', 'disabled', 'locked'], {
  message: 'validation.status',
});
export const adminUserSortSchema = z
  .enum(['name', 'email', 'createdAt', 'lastSignInAt', 'status'], { message: 'validation.sort' })
  .default('name');

/** `GET /users` and `GET /users/export.csv` (the export ignores page and pageSize). */
export const adminUserListQuerySchema = listQuerySchema.extend({
  /** A role key (`admin`, `doctor`, a custom role's key). */
  role: z.string().trim().min(1).max(64).optional(),
  status: adminUserStatusFilterSchema.optional(),
  sort: adminUserSortSchema,
  order: sortOrderSchema,
});
export type AdminUserListQuery = z.infer<typeof adminUserListQuerySchema>;

export const adminUserSchema = userSchema.extend({
  roles: z.array(roleSummarySchema),
  /** End of a sign-in lockout in force, else null. */
  lockedUntil: z.string().nullable(),
  lastSignInAt: z.string().nullable(),
  disabledAt: z.string().nullable(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;
export const adminUserPageSchema = pageOf(adminUserSchema);
export type AdminUserPage = z.infer<typeof adminUserPageSchema>;

/** `PATCH /users/:id`: an admin edits someone's profile (roles go through `PUT /users/:id/roles`). */
export const adminUpdateUserRequestSchema = z
  .object({
    name: personNameSchema,
    phone: phoneSchema.nullable(),
    language: languageSchema,
    timeZone: timeZoneSchema,
  })
  .partial()
  .strict();
export type AdminUpdateUserRequest = z.infer<typeof adminUpdateUserRequestSchema>;

// ---------------------------------------------------------------- roles

export const roleKeySchema = z
  .string()
  .trim()
  .regex(/^[a-z][a-z0-9_-]{1,47}$/, { message: 'validation.roleKey' });

/** A role's or a specialty's name in one language. */
export const roleNameSchema = displayText(
  z
    .string()
    .trim()
    .min(2, { message: 'validation.nameTooShort' })
    .max(80, { message: 'validation.nameTooLong' }),
);

export const localizedNameSchema = z.object({ es: roleNameSchema, en: roleNameSchema });
export type LocalizedName = z.infer<typeof localizedNameSchema>;

export const roleSchema = z.object({
  id: z.string(),
  key: z.string(),
  name: z.object({ es: z.string(), en: z.string() }),
  /** admin, doctor, staff, patient: cannot be deleted; the admin role's grants cannot be edited. */
  system: z.boolean(),
  permissions: z.array(z.string()),
  userCount: z.number().int().nonnegative(),
  createdAt: z.string(),
});
export type Role = z.infer<typeof roleSchema>;
export const rolePageSchema = pageOf(roleSchema);
export type RolePage = z.infer<typeof rolePageSchema>;

export const roleListQuerySchema = listQuerySchema.extend({
  sort: z.enum(['name', 'key', 'userCount', 'createdAt'], { message: 'validation.sort' }).default('name'),
  order: sortOrderSchema,
});
export type RoleListQuery = z.infer<typeof roleListQuerySchema>;

/** Permission names are checked against the catalogue by the server (unknown → 400). */
export const rolePermissionsSchema = z.array(z.string().min(1).max(64)).max(200);

export const createRoleRequestSchema = z
  .object({ key: roleKeySchema, name: localizedNameSchema, permissions: rolePermissionsSchema })
  .strict();
export type CreateRoleRequest = z.infer<typeof createRoleRequestSchema>;

export const updateRoleRequestSchema = z
  .object({ name: localizedNameSchema, permissions: rolePermissionsSchema })
  .partial()
  .strict();
export type UpdateRoleRequest = z.infer<typeof updateRoleRequestSchema>;

// ---------------------------------------------------------------- specialties

export const specialtySchema = z.object({
  id: z.string(),
  name: z.object({ es: z.string(), en: z.string() }),
  active: z.boolean(),
  doctorCount: z.number().int().nonnegative(),
  createdAt: z.string(),
});
export type Specialty = z.infer<typeof specialtySchema>;
export const specialtyPageSchema = pageOf(specialtySchema);
export type SpecialtyPage = z.infer<typeof specialtyPageSchema>;

export const specialtyListQuerySchema = listQuerySchema.extend({
  active: z.enum(['true', 'false'], { message: 'validation.invalid' }).optional(),
  sort: z.enum(['name', 'doctorCount', 'createdAt'], { message: 'validation.sort' }).default('name'),
  order: sortOrderSchema,
  /** Which language's name `sort=name` orders by. */
  language: languageSchema.optional(),
});
export type SpecialtyListQuery = z.infer<typeof specialtyListQuerySchema>;

export const createSpecialtyRequestSchema = z
  .object({ name: localizedNameSchema, active: z.boolean().default(true) })
  .strict();
export type CreateSpecialtyRequest = z.infer<typeof createSpecialtyRequestSchema>;
export const updateSpecialtyRequestSchema = z
  .object({ name: localizedNameSchema, active: z.boolean() })
  .partial()
  .strict();
export type UpdateSpecialtyRequest = z.infer<typeof updateSpecialtyRequestSchema>;

// ---------------------------------------------------------------- clinic settings
// The settings' own schema and their public part are in clinic-settings.ts.

/** `PATCH /settings`: any subset of sections, each section complete (logo excluded). */
export const updateClinicSettingsRequestSchema = z
  .object({
    clinic: clinicSettingsSchema.shape.clinic.omit({ logoUrl: true }).strict(),
    sessions: clinicSettingsSchema.shape.sessions.strict(),
    security: clinicSettingsSchema.shape.security.strict(),
    booking: clinicSettingsSchema.shape.booking.strict(),
    uploads: clinicSettingsSchema.shape.uploads.strict(),
    video: clinicSettingsSchema.shape.video.strict(),
    privacy: clinicSettingsSchema.shape.privacy.strict(),
  })
  .partial()
  .strict();
export type UpdateClinicSettingsRequest = z.infer<typeof updateClinicSettingsRequestSchema>;

// ---------------------------------------------------------------- audit log

export const auditOutcomeSchema = z.enum(['success', 'failure', 'denied'], { message: 'validation.invalid' });
export type AuditOutcome = z.infer<typeof auditOutcomeSchema>;

/** `GET /audit-events` and `GET /audit-events/export.csv`. Dates are inclusive, in the clinic's zone. */
export const auditListQuerySchema = listQuerySchema.extend({
  /** Actor's user id, or text matched against the actor's name or email. */
  actor: z.string().trim().min(1).max(200).optional(),
  /** Exact action (`user.disabled`) or a prefix ending in `.` / `*` (`user.`, `user.*`). */
  action: z.string().trim().min(1).max(100).optional(),
  targetType: z.string().trim().min(1).max(64).optional(),
  targetId: z.string().trim().min(1).max(200).optional(),
  outcome: auditOutcomeSchema.optional(),
  from: calendarDateSchema.optional(),
  to: calendarDateSchema.optional(),
  order: z.enum(['asc', 'desc'], { message: 'validation.order' }).default('desc'),
});
export type AuditListQuery = z.infer<typeof auditListQuerySchema>;

export const auditActorSchema = z.object({ id: z.string(), name: z.string(), email: z.string() });
export const auditEventSchema = z.object({
  id: z.number().int(),
  at: z.string(),
  /** Null for anonymous events (failed sign-in of an unknown email); a deleted actor keeps their id. */
  actorUserId: z.string().nullable(),
  actor: auditActorSchema.nullable(),
  actorIp: z.string().nullable(),
  userAgent: z.string().nullable(),
  requestId: z.string().nullable(),
  action: z.string(),
  targetType: z.string().nullable(),
  targetId: z.string().nullable(),
  outcome: auditOutcomeSchema,
  details: z.record(z.string(), z.unknown()),
});
export type AuditEvent = z.infer<typeof auditEventSchema>;
export const auditEventPageSchema = pageOf(auditEventSchema);
export type AuditEventPage = z.infer<typeof auditEventPageSchema>;

// ---------------------------------------------------------------- dashboard

/** `GET /dashboard?from=&to=`: inclusive dates in the clinic's time zone, at most 366 days. */
export const dashboardQuerySchema = z.object({
  from: calendarDateSchema.optional(),
  to: calendarDateSchema.optional(),
});
export type DashboardQuery = z.infer<typeof dashboardQuerySchema>;

export const dashboardResponseSchema = z.object({
  range: z.object({ from: z.string(), to: z.string(), timeZone: z.string() }),
  totals: z.object({
    activeUsers: z.number().int(),
    patients: z.number().int(),
    doctors: z.number().int(),
    /** Appointments starting in the range, any status. */
    appointments: z.number().int(),
    completed: z.number().int(),
    noShows: z.number().int(),
    cancelled: z.number().int(),
    /** no-shows ÷ (completed + no-shows), null when both are 0. */
    noShowRate: z.number().nullable(),
    /** Mean seconds from check-in to admission, null when no visit was admitted in the range. */
    averageWaitSeconds: z.number().nullable(),
    /** Patient accounts created in the range. */
    newPatients: z.number().int(),
  }),
  /** One row per day of the range (days without appointments included, all zeros). */
  appointmentsPerDay: z.array(
    z
      .object({ date: z.string() })
      .extend(
        Object.fromEntries(appointmentStatuses.map((status) => [status, z.number().int()])) as Record<
          AppointmentStatus,
          z.ZodNumber
        >,
      ),
  ),
  newPatientsPerDay: z.array(z.object({ date: z.string(), count: z.number().int() })),
  /** Doctors with at least one appointment in the range, most visits first (at most 20). */
  visitsPerDoctor: z.array(
    z.object({
      doctorId: z.string(),
      name: z.string(),
      completed: z.number().int(),
      noShows: z.number().int(),
      total: z.number().int(),
    }),
  ),
});
export type DashboardResponse = z.infer<typeof dashboardResponseSchema>;

// ---------------------------------------------------------------- outbox

/** `GET /outbox`: the list query plus a status filter. */
export const outboxListQuerySchema = listQuerySchema.extend({
  status: z.enum(['stored', 'queued', 'sent', 'failed'], { message: 'validation.status' }).optional(),
});
export type OutboxListQuery = z.infer<typeof outboxListQuerySchema>;

// ---------------------------------------------------------------- H2: settings rules, audit facets

/**
 * The booking rules a schema cannot say alone: visit lengths strictly
 * ascending (so without duplicates) and the default length one of them.
 * Paths are relative to the booking section; messages are `validation.*` keys.
 * The server applies the same check to `PATCH /settings`.
 */
export function findBookingRuleIssues(
  booking: Pick<ClinicSettings['booking'], 'visitLengths' | 'defaultVisitMinutes'>,
): { path: string; message: string }[] {
  const issues: { path: string; message: string }[] = [];
  const isAscending = booking.visitLengths.every(
    (length, index) => index === 0 || length > booking.visitLengths[index - 1]!,
  );
  if (!isAscending) {
    issues.push({ path: 'visitLengths', message: 'validation.visitLengthsAscending' });
  }
  if (!booking.visitLengths.includes(booking.defaultVisitMinutes)) {
    issues.push({ path: 'defaultVisitMinutes', message: 'validation.defaultVisitLength' });
  }
  return issues;
}

/** `GET /audit-events/facets`: the distinct values the filter dropdowns offer. */
export const auditFacetsResponseSchema = z.object({
  actions: z.array(z.string()),
  targetTypes: z.array(z.string()),
});
export type AuditFacetsResponse = z.infer<typeof auditFacetsResponseSchema>;
