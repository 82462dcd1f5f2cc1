import type { Actor } from '../context.js';

/** How far a group of the global search reaches: everyone's records, the caller's own, or none. */
export type SearchReach = 'any' | 'own' | null;

export interface SearchScopes {
  users: boolean;
  /** `own`: patients with an appointment with the calling doctor. */
  patients: SearchReach;
  /** `own`: appointments where the caller is the doctor or the patient. */
  appointments: SearchReach;
}

/**
 * Which groups of the header's global search a user may see, from their
 * permissions: a group they may not see is left out of the answer, not
 * answered empty, so nothing even hints at records out of reach.
 */
export function searchScopesOf(actor: Pick<Actor, 'permissions'>): SearchScopes {
  const has = (permission: Parameters<Actor['permissions']['has']>[0]) => actor.permissions.has(permission);
  return {
    users: has('users.read') || has('users.manage'),
    patients: has('patients.read.admin') ? 'any' : has('records.read') ? 'own' : null,
    appointments: has('appointments.read.any') ? 'any' : has('appointments.read.own') ? 'own' : null,
  };
}
