/** Forgotten passwords: the emailed link and setting a new password with it. */
import { languageOf } from '../../lib/language.js';
import { assertPasswordAcceptable } from '../../lib/password-policy.js';
import { hashSecretToken } from '../../lib/tokens.js';
import type { ServiceContext } from '../context.js';
import { appLink, sendEmail } from '../email/email.service.js';
import { linkLifetimeHours } from '../email/templates.js';
import { endSessions } from './sessions.service.js';
import { findUserByEmail, findUserById, updateUser } from './users.repository.js';
import { consumeToken, findUsableToken, retireTokens } from './auth-tokens.repository.js';
import { clearLoginFailures } from './login-failures.repository.js';
import { invalidToken, issueAuthToken } from './auth-tokens.service.js';

/**
 * Asks for a reset link to be emailed when the email has an account that may
 * sign in. The answer never says which, not even by its timing: the look-up,
 * the token and the email all happen after the answer has gone out, so a
 * registered and an unknown address cost the same to answer: the timing must not tell who has an account.
 */
export function requestPasswordReset(ctx: ServiceContext, email: string): void {
  ctx.background.run('password reset', () => sendPasswordReset(ctx, email));
}

/** Emails a reset link when the email has an account that may sign in (audited either way). */
async function sendPasswordReset(ctx: ServiceContext, email: string): Promise<void> {
  const user = await findUserByEmail(ctx.db, email);
  if (user === null || user.status === 'disabled') {
    await ctx.audit({
      action: 'auth.password_reset_requested',
      outcome: 'failure',
      details: { email, reason: user === null ? 'unknown_email' : 'disabled' },
    });
    return;
  }
  const { token } = await issueAuthToken(
    ctx,
    ctx.db,
    'reset_password',
    { userId: user.id, email: user.email },
    linkLifetimeHours.resetPassword,
  );
  const isSent = await sendEmail(
    ctx,
    user.email,
    languageOf(user),
    { template: 'reset-password', data: { name: user.name, link: appLink(ctx, '/reset-password', token) } },
    { throttle: true },
  );
  await ctx.audit({
    action: 'auth.password_reset_requested',
    actorUserId: null,
    targetType: 'user',
    targetId: user.id,
    details: isSent ? {} : { throttled: true },
  });
}

/**
 * Sets a new password with an emailed reset token. The token is spent only
 * when the new password is acceptable (a refused password can be retried with
 * the same link). Every session of the user ends; a lockout is lifted; the
 * email counts as verified (the link proved it).
 */
export async function resetPassword(ctx: ServiceContext, token: string, password: string): Promise<void> {
  const db = ctx.db;
  const tokenHash = hashSecretToken(token);
  const found = await findUsableToken(db, 'reset_password', tokenHash, ctx.now());
  const user = found?.userId ? await findUserById(db, found.userId) : null;
  if (found === null || user === null || user.email !== found.email) {
    throw invalidToken();
  }
  assertPasswordAcceptable(password, { email: user.email, name: user.name });
  const passwordHash = await ctx.passwords.hash(password);
  const now = ctx.now();
  await db.transaction(async (tx) => {
    if ((await consumeToken(tx, 'reset_password', tokenHash, now)) === null) {
      throw invalidToken();
    }
    await updateUser(tx, user.id, {
      passwordHash,
      emailVerifiedAt: user.emailVerifiedAt ?? now,
      status: user.status === 'pending' ? 'active' : user.status,
      updatedAt: now,
    });
    await retireTokens(tx, 'reset_password', { userId: user.id }, now);
  });
  await endSessions(ctx, { userId: user.id }, 'password_reset');
  await clearLoginFailures(db, user.email);
  await ctx.audit({
    action: 'auth.password_reset',
    actorUserId: user.id,
    targetType: 'user',
    targetId: user.id,
  });
  await sendEmail(ctx, user.email, languageOf(user), {
    template: 'password-changed',
    data: { name: user.name, resetLink: appLink(ctx, '/forgot-password') },
  });
}
