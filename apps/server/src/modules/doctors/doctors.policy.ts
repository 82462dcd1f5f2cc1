import type { Actor } from '../context.js';

/**
 * Who edits a doctor's profile: administrators (`doctors.manage`) anyone's,
 * a doctor (`doctors.profile.own`) their own. Profiles are public to everyone
 * signed in, so a refusal is a plain 403, not a 404 that hides the doctor.
 */
export function canEditDoctorProfile(actor: Actor, doctorId: string): boolean {
  return (
    actor.permissions.has('doctors.manage') ||
    (actor.userId === doctorId && actor.permissions.has('doctors.profile.own'))
  );
}

/**
 * The license number is a credential the clinic checks: only administrators
 * set or change it (a doctor may send it back unchanged with the rest of the form).
 */
export function canChangeLicenseNumber(actor: Actor): boolean {
  return actor.permissions.has('doctors.manage');
}

/**
 * Disabled or not-yet-active doctors are out of the directory; administrators
 * still open their profile (to prepare it before the doctor's first sign-in).
 */
export function canViewInactiveDoctor(actor: Actor): boolean {
  return actor.permissions.has('doctors.manage');
}
