import { appError } from '../../lib/app-error.js';
import type { Actor } from '../context.js';

/**
 * Who may see a user's photo: the user, staff and admins who can read users
 * (`users.read`), and anyone signed in when the user is a doctor (patients
 * see doctors' photos in the directory). A refusal answers 404 like a missing
 * photo, so it does not tell that the user exists.
 */
export function canViewPhoto(actor: Actor, target: { id: string; isDoctor: boolean }): boolean {
  return target.id === actor.userId || actor.permissions.has('users.read') || target.isDoctor;
}

/**
 * Some changes are never made to one's own account through the
 * administration (disable, reset the second factor, drop one's admin role):
 * another administrator has to, so nobody locks themselves out by accident.
 */
export function assertNotSelf(actorId: string, targetId: string, message: string): void {
  if (actorId === targetId) {
    throw appError('CANNOT_CHANGE_SELF', message);
  }
}
