import type { Language } from '@telemedicina/shared/i18n';
import type {
  CreateGuestInviteRequest,
  GuestInvite,
  RedeemGuestInviteResponse,
} from '@telemedicina/shared/visits';
import { appError } from '../../lib/app-error.js';
import { createSecretToken, hashSecretToken } from '../../lib/tokens.js';
import type { VisitContext, VisitDependencies } from './visit-context.js';
import { canInviteToVisit } from './visits.policy.js';
import { guestParticipant, presentGuestInvite } from './visits.presenter.js';
import {
  findGuestBySession,
  findVisitGuest,
  findVisitGuestByTokenHash,
  insertVisitGuest,
  listVisitGuests,
  redeemVisitGuest,
  revokeVisitGuest,
  type VisitGuestRow,
} from './visits.repository.js';
import { loadVisit, type LoadedVisit } from './visit-access.js';
import { visitWindow } from './visit-state.service.js';

const minuteMs = 60_000;

async function loadForInvites(ctx: VisitContext, appointmentId: string): Promise<LoadedVisit> {
  const visit = await loadVisit(ctx, appointmentId);
  if (ctx.caller === null || !canInviteToVisit(ctx.caller, visit.capacity)) {
    throw appError('NOT_FOUND', 'No such visit.');
  }
  return visit;
}

/**
 * Invites an interpreter or a companion: the visit's doctor or patient (with
 * `visits.invite`). The link carries a random token (only its hash is kept)
 * in the URL fragment, so it never reaches a server log; it works once and
 * expires after the requested time, never later than the visit's grace
 * period.
 */
export async function inviteGuest(
  ctx: VisitContext,
  appointmentId: string,
  request: CreateGuestInviteRequest,
  origin: string,
): Promise<GuestInvite> {
  const visit = await loadForInvites(ctx, appointmentId);
  const { appointment } = visit;
  if (['completed', 'cancelled', 'no_show'].includes(appointment.status)) {
    throw appError('VISIT_ENDED', 'This visit has ended.', { status: appointment.status });
  }
  const now = ctx.now();
  const { closesAt } = visitWindow(appointment);
  const expiresAt = new Date(
    Math.min(now.getTime() + request.expiresInMinutes * minuteMs, closesAt.getTime()),
  );
  if (expiresAt <= now) {
    throw appError('VISIT_ENDED', 'This visit can no longer be joined.');
  }
  const token = createSecretToken();
  const guest = await insertVisitGuest(ctx.db, {
    appointmentId: appointment.id,
    name: request.name,
    role: request.role,
    language: request.language,
    tokenHash: hashSecretToken(token),
    expiresAt,
    createdByUserId: ctx.caller?.kind === 'user' ? ctx.caller.userId : null,
    createdAt: now,
  });
  await ctx.audit({
    action: 'visit.guest_invited',
    targetType: 'visit_guest',
    targetId: guest.id,
    details: { appointmentId: appointment.id, role: guest.role, expiresAt: expiresAt.toISOString() },
  });
  return presentGuestInvite(guest, `${origin}/guest#${token}`);
}

export async function listGuests(ctx: VisitContext, appointmentId: string): Promise<GuestInvite[]> {
  const visit = await loadForInvites(ctx, appointmentId);
  return (await listVisitGuests(ctx.db, visit.appointment.id)).map((guest) => presentGuestInvite(guest));
}

/** Revokes an invitation (used or not): its guest's connections end at once. */
export async function revokeGuest(ctx: VisitContext, appointmentId: string, guestId: string): Promise<void> {
  const visit = await loadForInvites(ctx, appointmentId);
  const guest = /^[0-9a-f-]{36}$/i.test(guestId) ? await findVisitGuest(ctx.db, guestId) : null;
  if (guest?.appointmentId !== visit.appointment.id) {
    throw appError('NOT_FOUND', 'No such guest.');
  }
  const revoked = await revokeVisitGuest(ctx.db, guest.id, ctx.now());
  if (revoked !== null) {
    await ctx.audit({
      action: 'visit.guest_revoked',
      targetType: 'visit_guest',
      targetId: guest.id,
      details: { appointmentId: visit.appointment.id },
    });
  }
  ctx.realtime.disconnectGuest(guest.id);
}

/**
 * Redeems an invitation link (public): once only, before it expires and
 * unless revoked — else 410 GUEST_LINK_USED / GUEST_LINK_EXPIRED, or 404 for
 * a token that never existed. Answers the guest's own session token (stored
 * hashed), which the route sets as the `tm_guest` cookie until the
 * invitation expires. Failures are audited too.
 */
export async function redeemGuestInvite(
  ctx: VisitContext,
  token: string,
): Promise<{ response: RedeemGuestInviteResponse; sessionToken: string; expiresAt: Date }> {
  const tokenHash = hashSecretToken(token);
  const sessionToken = createSecretToken();
  const now = ctx.now();
  const guest = await redeemVisitGuest(ctx.db, tokenHash, hashSecretToken(sessionToken), now);
  if (guest === null) {
    const existing = await findVisitGuestByTokenHash(ctx.db, tokenHash);
    if (existing === null) {
      throw appError('NOT_FOUND', 'This link is not valid.');
    }
    const isUsed = existing.redeemedAt !== null;
    await ctx.audit({
      action: 'visit.guest_redeemed',
      outcome: 'failure',
      targetType: 'visit_guest',
      targetId: existing.id,
      details: { appointmentId: existing.appointmentId, reason: isUsed ? 'used' : 'expired' },
    });
    throw isUsed
      ? appError('GUEST_LINK_USED', 'This link has already been used.')
      : appError('GUEST_LINK_EXPIRED', 'This link has expired.');
  }
  await ctx.audit({
    action: 'visit.guest_redeemed',
    targetType: 'visit_guest',
    targetId: guest.id,
    details: { appointmentId: guest.appointmentId, role: guest.role },
  });
  return {
    response: {
      appointmentId: guest.appointmentId,
      guest: guestParticipant(guest),
      language: guest.language as Language,
    },
    sessionToken,
    expiresAt: guest.expiresAt,
  };
}

/** The live guest behind a `tm_guest` cookie value, or null. */
export async function resolveGuestSession(
  deps: Pick<VisitDependencies, 'db' | 'now'>,
  token: string,
): Promise<VisitGuestRow | null> {
  if (token.length < 20 || token.length > 200) {
    return null;
  }
  return findGuestBySession(deps.db, hashSecretToken(token), deps.now());
}
