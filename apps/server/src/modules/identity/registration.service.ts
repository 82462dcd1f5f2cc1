/** Patient self-registration and email verification. */
import type { RegisterRequest } from '@telemedicina/shared/auth';
import { languageOf } from '../../lib/language.js';
import { assertPasswordAcceptable } from '../../lib/password-policy.js';
import { hashSecretToken } from '../../lib/tokens.js';
import type { ServiceContext } from '../context.js';
import { appLink, sendEmail } from '../email/email.service.js';
import { linkLifetimeHours } from '../email/templates.js';
import {
  findRolesByKeys,
  findUserByEmail,
  findUserById,
  insertUserIfEmailFree,
  replaceUserRoles,
  updateUser,
  type UserRow,
} from './users.repository.js';
import { consumeToken } from './auth-tokens.repository.js';
import { insertConsents } from './consents.repository.js';
import { invalidToken, issueAuthToken } from './auth-tokens.service.js';

/** Versions of the documents a person accepts at registration (recorded with each consent). */
export const termsVersion = '2026-01';
export const telemedicineConsentVersion = '2026-01';

/**
 * Patient self-registration. The answer is the same whether or not the email
 * already has an account: a new account gets a verification email; an
 * existing one gets a note that someone tried to register (or, if it never
 * verified, a fresh verification link). The password is hashed in both cases
 * so the timing matches too.
 */
export async function register(ctx: ServiceContext, input: RegisterRequest): Promise<void> {
  assertPasswordAcceptable(input.password, { email: input.email, name: input.name });
  const passwordHash = await ctx.passwords.hash(input.password);
  const now = ctx.now();
  const created = await ctx.db.transaction(async (tx) => {
    const user = await insertUserIfEmailFree(tx, {
      email: input.email,
      name: input.name,
      phone: input.phone,
      dateOfBirth: input.dateOfBirth,
      language: input.language,
      timeZone: input.timeZone,
      passwordHash,
      status: 'pending',
      createdAt: now,
      updatedAt: now,
    });
    if (user === null) {
      return null;
    }
    const patientRoles = await findRolesByKeys(tx, ['patient']);
    await replaceUserRoles(
      tx,
      user.id,
      patientRoles.map((role) => role.id),
      now,
    );
    await insertConsents(tx, [
      { userId: user.id, kind: 'terms', version: termsVersion, acceptedAt: now, ip: ctx.request.ip },
      {
        userId: user.id,
        kind: 'telemedicine',
        version: telemedicineConsentVersion,
        acceptedAt: now,
        ip: ctx.request.ip,
      },
    ]);
    const { token } = await issueAuthToken(
      ctx,
      tx,
      'verify_email',
      { userId: user.id, email: user.email },
      linkLifetimeHours.verifyEmail,
    );
    return { user, token };
  });

  if (created === null) {
    const existing = await findUserByEmail(ctx.db, input.email);
    if (existing !== null) {
      await notifyExistingAccount(ctx, existing);
    }
    await ctx.audit({
      action: 'auth.register',
      outcome: 'failure',
      targetType: 'user',
      targetId: existing?.id ?? null,
      details: { reason: 'email_taken' },
    });
    return;
  }
  await sendEmail(ctx, created.user.email, languageOf(created.user), {
    template: 'verify-email',
    data: { name: created.user.name, link: appLink(ctx, '/verify-email', created.token) },
  });
  await ctx.audit({
    action: 'auth.register',
    actorUserId: created.user.id,
    targetType: 'user',
    targetId: created.user.id,
  });
}

async function notifyExistingAccount(ctx: ServiceContext, user: UserRow): Promise<void> {
  if (user.status === 'pending' && user.emailVerifiedAt === null) {
    await sendVerificationEmail(ctx, user);
    return;
  }
  await sendEmail(
    ctx,
    user.email,
    languageOf(user),
    {
      template: 'registration-attempt',
      data: { name: user.name, signInLink: appLink(ctx, '/'), resetLink: appLink(ctx, '/forgot-password') },
    },
    { throttle: true },
  );
}

async function sendVerificationEmail(ctx: ServiceContext, user: UserRow): Promise<void> {
  const { token } = await issueAuthToken(
    ctx,
    ctx.db,
    'verify_email',
    { userId: user.id, email: user.email },
    linkLifetimeHours.verifyEmail,
  );
  await sendEmail(
    ctx,
    user.email,
    languageOf(user),
    { template: 'verify-email', data: { name: user.name, link: appLink(ctx, '/verify-email', token) } },
    { throttle: true },
  );
}

/** Confirms the email address with the emailed token; the account becomes active. */
export async function verifyEmail(ctx: ServiceContext, token: string): Promise<void> {
  const now = ctx.now();
  const used = await consumeToken(ctx.db, 'verify_email', hashSecretToken(token), now);
  const user = used?.userId ? await findUserById(ctx.db, used.userId) : null;
  if (user === null || user.email !== used?.email) {
    throw invalidToken();
  }
  await updateUser(ctx.db, user.id, {
    emailVerifiedAt: user.emailVerifiedAt ?? now,
    status: user.status === 'pending' ? 'active' : user.status,
    updatedAt: now,
  });
  await ctx.audit({
    action: 'auth.email_verified',
    actorUserId: user.id,
    targetType: 'user',
    targetId: user.id,
  });
}

/** Sends a new verification link when the email belongs to an unverified account; silent otherwise. */
export async function resendVerification(ctx: ServiceContext, email: string): Promise<void> {
  const user = await findUserByEmail(ctx.db, email);
  if (user !== null && user.status === 'pending' && user.emailVerifiedAt === null) {
    await sendVerificationEmail(ctx, user);
  }
}
