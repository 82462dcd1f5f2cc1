import type { Database } from '../../db/client.js';
import type { RequestMeta } from '../context.js';
import { insertAuditEvent } from './audit.repository.js';

/** Every action the audit trail records (docs/IDENTITY.md lists them). */
export const auditActions = [
  'auth.register',
  'auth.email_verified',
  'auth.login',
  'auth.login_failed',
  'auth.lockout',
  'auth.logout',
  'auth.password_reset_requested',
  'auth.password_reset',
  'auth.password_changed',
  'auth.mfa_enabled',
  'auth.mfa_disabled',
  'auth.mfa_recovery_codes_regenerated',
  'auth.session_revoked',
  'user.created',
  'user.invited',
  'user.invitation_accepted',
  'user.unlocked',
  'user.roles_changed',
  // Administration of accounts, roles and specialties (issue 5, server-accounts)
  'user.exported',
  'user.updated',
  'user.disabled',
  'user.enabled',
  'user.mfa_reset',
  'role.created',
  'role.updated',
  'role.deleted',
  'specialty.created',
  'specialty.updated',
  'specialty.deleted',
  // Doctor profiles (issue 6)
  'doctor.profile_updated',
  'profile.updated',
  'access.denied',
  'settings.updated',
  'audit.viewed',
  'audit.exported',
  // Availability and booking (issue 6)
  'availability.rules_replaced',
  'availability.exception_created',
  'availability.exception_deleted',
  'appointment.booked',
  'appointment.cancelled',
  'appointment.rescheduled',
  'appointment.status_changed',
  // Video visits (issue 7): check, check-in, admission, end, delay, files, guests
  'visit.device_checked',
  'visit.checked_in',
  'visit.admitted',
  'visit.ended',
  'visit.running_late',
  'visit.file_shared',
  'visit.guest_invited',
  'visit.guest_redeemed',
  'visit.guest_admitted',
  'visit.guest_joined',
  'visit.guest_revoked',
  // Prescriptions (issue 8): issued, viewed (JSON or PDF), cancelled, publicly verified
  'prescription.issued',
  'prescription.viewed',
  'prescription.cancelled',
  'prescription.verified',
  // Patient chart (issue 8): every read and write, emergency access, the patients list
  'patient.list_viewed',
  'record.viewed',
  'record.updated',
  'record.emergency_access',
  // Record export (issue 8): the patient's own copy, or an administrator's with a reason
  'record.exported',
  // Visit notes and patient-reported vitals (issue 8); `note.edited` at most once per note per 10 minutes
  'note.created',
  'note.edited',
  'note.diagnoses_set',
  'note.signed',
  'note.addendum_added',
  'vitals.reported',
  // Chart documents (issue 8): uploads and removals (reads are record.viewed)
  'document.uploaded',
  'document.removed',
] as const;
export type AuditAction = (typeof auditActions)[number];

export interface AuditEventInput {
  action: AuditAction;
  outcome?: 'success' | 'failure' | 'denied';
  targetType?: string | null;
  targetId?: string | null;
  details?: Record<string, unknown>;
  /** Defaults to the signed-in actor; set it when the actor is known otherwise (sign-in). */
  actorUserId?: string | null;
}

/**
 * Writes an audit event: who (actor), what (action, target), when, from where
 * (IP, user agent, request id) and the outcome. Used by every module; the
 * database refuses to change or delete what it writes.
 */
export async function recordAuditEvent(
  db: Database,
  context: { now: () => Date; actorUserId: string | null; request: RequestMeta },
  event: AuditEventInput,
): Promise<void> {
  await insertAuditEvent(db, {
    at: context.now(),
    actorUserId: event.actorUserId === undefined ? context.actorUserId : event.actorUserId,
    actorIp: context.request.ip,
    userAgent: context.request.userAgent,
    requestId: context.request.requestId,
    action: event.action,
    targetType: event.targetType ?? null,
    targetId: event.targetId ?? null,
    outcome: event.outcome ?? 'success',
    details: event.details ?? {},
  });
}
