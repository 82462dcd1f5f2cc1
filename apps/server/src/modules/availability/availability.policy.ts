import type { Actor } from '../context.js';

/**
 * Who changes a doctor's weekly rules and exceptions: the doctor themself
 * with `availability.manage.own`, anyone with `availability.manage.any`.
 */
export function canManageAvailabilityOf(actor: Actor, doctorUserId: string): boolean {
  return (
    actor.permissions.has('availability.manage.any') ||
    (actor.permissions.has('availability.manage.own') && actor.userId === doctorUserId)
  );
}
