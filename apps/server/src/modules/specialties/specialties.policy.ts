import type { Actor } from '../context.js';

/**
 * Who sees the whole catalogue: those who manage it. Everyone else signed in
 * (patients choosing a doctor, doctors editing their profile) only ever sees
 * active specialties, whatever they ask for.
 */
export function canManageSpecialties(actor: Actor): boolean {
  return actor.permissions.has('specialties.manage');
}
