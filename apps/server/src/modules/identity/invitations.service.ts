/** Invitations: reading one for the acceptance page and accepting it (a new or a completed account). */
import type { AcceptInvitationRequest, InvitationInfo } from '@telemedicina/shared/auth';
import { z } from 'zod';
import { appError } from '../../lib/app-error.js';
import { assertPasswordAcceptable } from '../../lib/password-policy.js';
import { hashSecretToken } from '../../lib/tokens.js';
import type { ServiceContext } from '../context.js';
import { endSessions } from './sessions.service.js';
import { loadIdentitySettings } from '../settings/settings.service.js';
import {
  findRolesByKeys,
  findUserById,
  insertUserIfEmailFree,
  replaceUserRoles,
  updateUser,
  type UserRow,
} from './users.repository.js';
import { presentRole } from './users.presenter.js';
import { consumeToken, findUsableToken } from './auth-tokens.repository.js';
import { insertConsents } from './consents.repository.js';
import { invalidToken } from './auth-tokens.service.js';
import { telemedicineConsentVersion, termsVersion } from './registration.service.js';
import { openSession, type SignedIn } from './sign-in.service.js';

/** What an invitation token carries (written by `inviteUser`). */
export const invitationPayloadSchema = z.object({
  email: z.string(),
  name: z.string(),
  roleKeys: z.array(z.string()),
  language: z.enum(['es', 'en']),
  /**
   * Set when the account already exists: a patient registered by reception (pending, no
   * password), whom accepting completes instead of creating.
   */
  userId: z.string().optional(),
});
export type InvitationPayload = z.infer<typeof invitationPayloadSchema>;

async function loadInvitation(
  ctx: ServiceContext,
  token: string,
): Promise<{ id: string; payload: InvitationPayload; invitedBy: string | null }> {
  const found = await findUsableToken(ctx.db, 'invitation', hashSecretToken(token), ctx.now());
  const payload = invitationPayloadSchema.safeParse(found?.payload);
  if (found === null || !payload.success) {
    throw invalidToken();
  }
  return { id: found.id, payload: payload.data, invitedBy: found.createdByUserId };
}

/** Who is invited and with which roles, for the acceptance page. */
export async function getInvitation(ctx: ServiceContext, token: string): Promise<InvitationInfo> {
  const { payload } = await loadInvitation(ctx, token);
  const roles = await findRolesByKeys(ctx.db, payload.roleKeys);
  return { email: payload.email, name: payload.name, roles: roles.map(presentRole) };
}

/**
 * Accepts an invitation: creates the account (email verified by the link,
 * roles from the invitation), records acceptance of the terms and signs the
 * new user in.
 */
export async function acceptInvitation(
  ctx: ServiceContext,
  input: AcceptInvitationRequest,
  currentSessionId: string | null,
): Promise<SignedIn> {
  const invitation = await loadInvitation(ctx, input.token);
  // A patient (registered by reception) gives the telemedicine consent a self-registering patient gives.
  const isPatient = invitation.payload.roleKeys.includes('patient');
  if (isPatient && input.acceptTelemedicineConsent !== true) {
    throw appError('VALIDATION_FAILED', 'The request is not valid.', {
      issues: [
        {
          location: 'body',
          path: 'acceptTelemedicineConsent',
          code: 'custom',
          message: 'validation.mustAccept',
        },
      ],
    });
  }
  const name = input.name ?? invitation.payload.name;
  assertPasswordAcceptable(input.password, { email: invitation.payload.email, name });
  const passwordHash = await ctx.passwords.hash(input.password);
  const settings = await loadIdentitySettings(ctx.db, ctx.config);
  const now = ctx.now();
  const user = await ctx.db.transaction(async (tx) => {
    if ((await consumeToken(tx, 'invitation', hashSecretToken(input.token), now)) === null) {
      throw invalidToken();
    }
    const existingId = invitation.payload.userId;
    if (existingId !== undefined) {
      return completeRegisteredAccount(tx, existingId, invitation.payload.email, {
        name,
        timeZone: input.timeZone,
        passwordHash,
        now,
        ip: ctx.request.ip,
        consentKinds: isPatient ? ['terms', 'telemedicine'] : ['terms'],
      });
    }
    const created = await insertUserIfEmailFree(tx, {
      email: invitation.payload.email,
      name,
      language: invitation.payload.language,
      timeZone: input.timeZone ?? settings.clinicTimeZone,
      passwordHash,
      status: 'active',
      emailVerifiedAt: now,
      createdAt: now,
      updatedAt: now,
    });
    if (created === null) {
      throw invalidToken();
    }
    const roles = await findRolesByKeys(tx, invitation.payload.roleKeys);
    await replaceUserRoles(
      tx,
      created.id,
      roles.map((role) => role.id),
      now,
    );
    await insertConsents(tx, [
      {
        userId: created.id,
        kind: 'terms',
        version: termsVersion,
        acceptedAt: now,
        ip: ctx.request.ip,
      },
    ]);
    if (isPatient) {
      await insertConsents(tx, [
        {
          userId: created.id,
          kind: 'telemedicine',
          version: telemedicineConsentVersion,
          acceptedAt: now,
          ip: ctx.request.ip,
        },
      ]);
    }
    return created;
  });
  if (currentSessionId !== null) {
    await endSessions(ctx, { ids: [currentSessionId] }, 'rotated');
  }
  const signedIn = await openSession(ctx, user);
  await ctx.audit({
    action: 'user.invitation_accepted',
    actorUserId: user.id,
    targetType: 'user',
    targetId: user.id,
    details: {
      invitationId: invitation.id,
      invitedBy: invitation.invitedBy,
      roleKeys: invitation.payload.roleKeys,
    },
  });
  return signedIn;
}

/**
 * Accepting an invitation for an account reception registered: the account must still be the
 * pending, password-less one of that email; it gets the password, becomes active and verified
 * (the link proved the address), and records the terms accepted on the invitation page.
 */
async function completeRegisteredAccount(
  tx: ServiceContext['db'],
  userId: string,
  email: string,
  changes: {
    name: string;
    timeZone: string | undefined;
    passwordHash: string;
    now: Date;
    ip: string | null;
    consentKinds: readonly ('terms' | 'telemedicine')[];
  },
): Promise<UserRow> {
  const existing = await findUserById(tx, userId);
  if (
    existing === null ||
    existing.email !== email ||
    existing.status !== 'pending' ||
    existing.passwordHash !== null
  ) {
    throw invalidToken();
  }
  const updated = await updateUser(tx, existing.id, {
    name: changes.name,
    timeZone: changes.timeZone ?? existing.timeZone,
    passwordHash: changes.passwordHash,
    status: 'active',
    emailVerifiedAt: changes.now,
    updatedAt: changes.now,
  });
  if (updated === null) {
    throw invalidToken();
  }
  await insertConsents(
    tx,
    changes.consentKinds.map((kind) => ({
      userId: updated.id,
      kind,
      version: kind === 'terms' ? termsVersion : telemedicineConsentVersion,
      acceptedAt: changes.now,
      ip: changes.ip,
    })),
  );
  return updated;
}
