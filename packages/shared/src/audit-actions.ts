/**
 * Every action the audit trail records (docs/IDENTITY.md lists them). The server types its audit
 * writes with this list (`recordAuditEvent`), and the web shows each one by a translated label
 * (`audit.actions.<domain>.<verb>`): a test checks that every action here has one in both languages.
 */
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
  // Administration of accounts, roles and specialties
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
  // Doctor profiles
  'doctor.profile_updated',
  'profile.updated',
  'access.denied',
  'settings.updated',
  'audit.viewed',
  'audit.exported',
  // Availability and booking
  'availability.rules_replaced',
  'availability.exception_created',
  'availability.exception_deleted',
  'appointment.booked',
  'appointment.cancelled',
  'appointment.rescheduled',
  'appointment.status_changed',
  // Video visits: check, check-in, admission, end, delay, files, guests
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
  // Prescriptions: issued, viewed (JSON or PDF), cancelled, publicly verified
  'prescription.issued',
  'prescription.viewed',
  'prescription.cancelled',
  'prescription.verified',
  // Patient chart: every read and write, emergency access, the patients list
  'patient.list_viewed',
  'record.viewed',
  'record.updated',
  'record.emergency_access',
  // Record export: the patient's own copy, or an administrator's with a reason
  'record.exported',
  // Visit notes and patient-reported vitals; `note.edited` at most once per note per 10 minutes
  'note.created',
  'note.edited',
  'note.diagnoses_set',
  'note.signed',
  'note.addendum_added',
  'vitals.reported',
  // Chart documents: uploads and removals (reads are record.viewed)
  'document.uploaded',
  'document.removed',
  // Consent documents: published by the clinic; signed, read, withdrawn, publicly verified
  'consent.document_published',
  'consent.signed',
  'consent.viewed',
  'consent.withdrawn',
  'consent.verified',
  // Questionnaires built by the clinic or a doctor: created, a version published, archived or
  // brought back, sent for a specialty's or a doctor's appointments or no longer
  'questionnaire.created',
  'questionnaire.published',
  'questionnaire.archived',
  'questionnaire.restored',
  'questionnaire.assigned',
  'questionnaire.unassigned',
  // SMART on FHIR apps: registered, authorized or refused by a person, disconnected, blocked
  'smart.app_registered',
  'smart.app_authorized',
  'smart.app_refused',
  'smart.app_disconnected',
  'smart.app_blocked',
  'smart.app_unblocked',
  'smart.registration_token_issued',
] as const;
export type AuditAction = (typeof auditActions)[number];

/** What an audit event can be about (its `targetType`); each has a translated label on the web. */
export const auditTargetTypes = [
  'appointment',
  'audit_log',
  'doctor',
  'invitation',
  'patient',
  'prescription',
  'questionnaire',
  'role',
  'route',
  'session',
  'settings',
  'smart_app',
  'specialty',
  'user',
  'visit_guest',
] as const;
export type AuditTargetType = (typeof auditTargetTypes)[number];

/**
 * The action families the patient's access log ("who saw my record") shows: the server selects
 * them (`listRecordAccessEvents`), the web words each of them for the patient.
 */
export const recordAccessActionDomains = [
  'record',
  'prescription',
  'document',
  'note',
  'vitals',
  'consent',
] as const;

/** The actions that can appear in the patient's access log. */
export const recordAccessActions: readonly AuditAction[] = auditActions.filter((action) =>
  (recordAccessActionDomains as readonly string[]).includes(action.slice(0, action.indexOf('.'))),
);

/** The translation key of an action's label: `audit.actions.visit.device_checked`. */
export function auditActionLabelKey(action: string): string {
  return `audit.actions.${action}`;
}
