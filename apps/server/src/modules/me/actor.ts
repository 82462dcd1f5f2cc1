import { AppError } from '../../lib/app-error.js';
import type { Actor, ServiceContext } from '../context.js';
import { findUserById, type UserRow } from '../users/users.repository.js';

/** The signed-in actor; the routes under /me guarantee one, so its absence is a 401. */
export function requireActor(ctx: ServiceContext): Actor {
  if (ctx.actor === null) {
    throw new AppError(401, 'UNAUTHENTICATED', 'Sign in to continue.');
  }
  return ctx.actor;
}

/** The signed-in user's row. */
export async function loadActorUser(ctx: ServiceContext): Promise<UserRow> {
  const user = await findUserById(ctx.db.db, requireActor(ctx).userId);
  if (user === null) {
    throw new AppError(401, 'UNAUTHENTICATED', 'Sign in to continue.');
  }
  return user;
}
