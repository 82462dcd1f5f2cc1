import type { Actor } from '../context.js';

/**
 * Whose day the actor reads: every doctor's with `appointments.read.any` (reception,
 * administrators), only their own as a doctor (`visits.host`), or nobody's.
 */
export function clinicDayScopeOf(actor: Actor): 'all' | 'own' | null {
  if (actor.permissions.has('appointments.read.any')) {
    return 'all';
  }
  return actor.permissions.has('visits.host') ? 'own' : null;
}

/** Finding patients to book for takes administrative patient data or booking for patients. */
export function canLookUpPatients(actor: Actor): boolean {
  return actor.permissions.has('patients.read.admin') || actor.permissions.has('appointments.book.any');
}

/** Registering a patient who calls or walks in. */
export function canRegisterPatients(actor: Actor): boolean {
  return actor.permissions.has('patients.register');
}
