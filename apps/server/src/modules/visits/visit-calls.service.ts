import type {
  ChatMessage,
  ChatSend,
  VisitParticipant,
  VisitState,
  WaitingRoom,
} from '@telemedicina/shared/visits';
import { appError } from '../../lib/app-error.js';
import type { VisitContext } from './visit-context.js';
import { canReadVisitChat, canWatchWaitingRoom, isVisitParticipant } from './visits.policy.js';
import { presentChatMessage } from './visits.presenter.js';
import { appendVisitMessage, listVisitMessages } from './visits.repository.js';
import { loadVisit, type LoadedVisit } from './visit-access.js';
import { presentMessages } from './visit-chat.service.js';
import { stateFor } from './visit-state.service.js';
import { buildWaitingRoom } from './visit-waiting-room.service.js';

/** Chat messages a join replays at most (older ones come from `GET …/messages`). */
const maxReplayedMessages = 500;

export interface PreparedJoin {
  visit: LoadedVisit;
  state: VisitState;
  /** The connection goes into the call (host, admitted participant); otherwise the waiting room. */
  inCall: boolean;
  /** Messages after the client's `lastSeq` (participants who may read the chat). */
  messages: ChatMessage[];
}

/**
 * What a `visit.join` may do: participants only (others: 404); not before
 * check-in opens (409 VISIT_NOT_OPEN) and not once the visit is over (409
 * VISIT_ENDED). The doctor and admitted participants go into the call, the
 * others into the waiting room. Guests' joins are audited.
 */
export async function prepareJoin(
  ctx: VisitContext,
  appointmentId: string,
  lastSeq: number,
): Promise<PreparedJoin> {
  const visit = await loadVisit(ctx, appointmentId);
  if (!isVisitParticipant(visit.capacity)) {
    throw appError('NOT_FOUND', 'No such visit.');
  }
  const state = await stateFor(ctx, visit);
  if (state.phase === 'too_early') {
    throw appError('VISIT_NOT_OPEN', 'This visit is not open yet.', {
      opensAt: state.checkInOpensAt,
    });
  }
  if (state.phase === 'ended' || state.phase === 'closed') {
    throw appError('VISIT_ENDED', 'This visit has ended.', { status: state.status });
  }
  const inCall = state.phase === 'in_call';
  const messages = canReadVisitChat(visit.capacity, state.phase)
    ? await presentMessages(
        ctx,
        visit.appointment,
        await listVisitMessages(ctx.db, visit.appointment.id, lastSeq, maxReplayedMessages),
      )
    : [];
  if (visit.guest !== null) {
    await ctx.audit({
      action: 'visit.guest_joined',
      targetType: 'visit_guest',
      targetId: visit.guest.id,
      details: { appointmentId: visit.appointment.id, inCall },
    });
  }
  return { visit, state, inCall, messages };
}

/**
 * Stores a chat message from a participant in the call (the caller checked
 * the connection is in it) and answers it; resending the same `clientId`
 * answers the stored message (`created` false) without a new number.
 */
export async function sendChatMessage(
  ctx: VisitContext,
  sender: VisitParticipant,
  payload: ChatSend,
): Promise<{ message: ChatMessage; created: boolean }> {
  const caller = ctx.caller;
  if (caller === null) {
    throw appError('NOT_FOUND', 'No such visit.');
  }
  const stored = await appendVisitMessage(
    ctx.db,
    {
      appointmentId: payload.appointmentId,
      senderUserId: caller.kind === 'user' ? caller.userId : null,
      senderGuestId: caller.kind === 'guest' ? caller.guestId : null,
      senderName: sender.name,
      senderKey: sender.key,
      clientId: payload.clientId,
      kind: 'text',
      body: payload.body,
      createdAt: ctx.now(),
    },
    null,
  );
  const roles = new Map<string, VisitParticipant['role']>([[sender.key, sender.role]]);
  return { message: presentChatMessage(stored.message, roles), created: stored.created };
}

/** `waitingRoom.watch`: the doctor themself or staff (404 otherwise, as over REST). */
export async function watchWaitingRoom(ctx: VisitContext, doctorId: string): Promise<WaitingRoom> {
  const caller = ctx.caller;
  if (caller === null || !canWatchWaitingRoom(caller, doctorId)) {
    throw appError('NOT_FOUND', 'No such waiting room.');
  }
  const room = await buildWaitingRoom(ctx, doctorId);
  if (room === null) {
    throw appError('NOT_FOUND', 'No such waiting room.');
  }
  return room;
}

/** `waitingRoom.message`: only the visit's doctor writes to its waiting patient. */
export async function prepareWaitingMessage(
  ctx: VisitContext,
  appointmentId: string,
): Promise<{ visit: LoadedVisit; patientKey: string }> {
  const visit = await loadVisit(ctx, appointmentId);
  if (visit.capacity !== 'doctor') {
    throw appError('NOT_FOUND', 'No such visit.');
  }
  return { visit, patientKey: `user:${visit.appointment.patientUserId}` };
}
