/** Single-use emailed tokens (verification, password reset, invitation): issuing them and the answer to a bad one. */
import type { AppError } from '../../lib/app-error.js';
import { appError } from '../../lib/app-error.js';
import { createSecretToken, hashSecretToken } from '../../lib/tokens.js';
import type { ServiceContext } from '../context.js';
import { insertAuthToken } from './auth-tokens.repository.js';

const hour = 3_600_000;

/** Creates an emailed single-use token; only its hash is stored. Resolves with the token itself. */
export async function issueAuthToken(
  ctx: ServiceContext,
  db: ServiceContext['db'],
  kind: 'verify_email' | 'reset_password' | 'invitation',
  owner: { userId: string | null; email: string },
  lifetimeHours: number,
  payload: Record<string, unknown> = {},
): Promise<{ token: string; id: string; expiresAt: Date }> {
  const token = createSecretToken();
  const now = ctx.now();
  const row = await insertAuthToken(db, {
    kind,
    tokenHash: hashSecretToken(token),
    userId: owner.userId,
    email: owner.email,
    payload,
    createdByUserId: ctx.actor?.userId ?? null,
    createdAt: now,
    expiresAt: new Date(now.getTime() + lifetimeHours * hour),
  });
  return { token, id: row.id, expiresAt: row.expiresAt };
}

/** The answer to a link whose token is unknown, used or expired. */
export function invalidToken(): AppError {
  return appError('TOKEN_INVALID', 'This link is not valid any more. Ask for a new one.');
}
