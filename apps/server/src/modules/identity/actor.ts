import { appError } from '../../lib/app-error.js';
import { requireActor, type ServiceContext } from '../context.js';
import { findUserById, type UserRow } from './users.repository.js';

/** The signed-in user's row. */
export async function loadActorUser(ctx: ServiceContext): Promise<UserRow> {
  const user = await findUserById(ctx.db, requireActor(ctx).userId);
  if (user === null) {
    throw appError('UNAUTHENTICATED', 'Sign in to continue.');
  }
  return user;
}
