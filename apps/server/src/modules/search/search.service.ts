import type { GlobalSearchQuery } from '@telemedicina/shared/search';
import { appError } from '../../lib/app-error.js';
import type { ServiceContext } from '../context.js';
import { searchScopesOf } from './search.policy.js';
import {
  searchAppointments,
  searchPatients,
  searchUsers,
  type AppointmentHit,
  type PatientHit,
  type UserHit,
} from './search.repository.js';

/** Hits per group. */
export const searchGroupLimit = 5;

export interface GlobalSearchResult {
  users?: UserHit[];
  patients?: PatientHit[];
  appointments?: AppointmentHit[];
}

/**
 * The header's search: users, patients and appointments matching `q`, each
 * group only when the caller's permissions reach it (see {@link searchScopesOf})
 * and limited to what they may see — a doctor finds their own patients, a
 * patient their own appointments.
 */
export async function searchEverything(
  ctx: ServiceContext,
  query: GlobalSearchQuery,
): Promise<GlobalSearchResult> {
  const actor = ctx.actor;
  if (actor === null) {
    throw appError('UNAUTHENTICATED', 'Sign in to continue.');
  }
  const scopes = searchScopesOf(actor);
  const db = ctx.db;
  const [users, patients, appointments] = await Promise.all([
    scopes.users ? searchUsers(db, query.q, searchGroupLimit) : undefined,
    scopes.patients === null
      ? undefined
      : searchPatients(db, query.q, searchGroupLimit, scopes.patients === 'own' ? actor.userId : null),
    scopes.appointments === null
      ? undefined
      : searchAppointments(
          db,
          query.q,
          searchGroupLimit,
          scopes.appointments === 'own' ? actor.userId : null,
          ctx.now(),
        ),
  ]);
  return {
    ...(users === undefined ? {} : { users }),
    ...(patients === undefined ? {} : { patients }),
    ...(appointments === undefined ? {} : { appointments }),
  };
}
