import type {
  ChatHistory,
  ChatHistoryQuery,
  ChatMessage,
  VisitParticipant,
} from '@telemedicina/shared/visits';
import type { AppointmentWithPeople } from '../appointments/appointments.repository.js';
import { guestKey, loadVisit, notFound, userKey } from './visit-access.js';
import type { VisitContext, VisitDependencies } from './visit-context.js';
import { canUseVisitRecord } from './visits.policy.js';
import { presentChatMessage } from './visits.presenter.js';
import {
  findVisit,
  listVisitGuests,
  listVisitMessages,
  type VisitMessageWithFile,
} from './visits.repository.js';

/** Participant keys of a visit mapped to their role, for presenting messages. */
export async function visitRoles(
  deps: VisitDependencies,
  appointment: Pick<AppointmentWithPeople, 'id' | 'doctorUserId' | 'patientUserId'>,
): Promise<Map<string, VisitParticipant['role']>> {
  const roles = new Map<string, VisitParticipant['role']>([
    [userKey(appointment.doctorUserId), 'doctor'],
    [userKey(appointment.patientUserId), 'patient'],
  ]);
  for (const guest of await listVisitGuests(deps.db, appointment.id)) {
    roles.set(guestKey(guest.id), guest.role);
  }
  return roles;
}

export async function presentMessages(
  deps: VisitDependencies,
  appointment: Pick<AppointmentWithPeople, 'id' | 'doctorUserId' | 'patientUserId'>,
  rows: readonly VisitMessageWithFile[],
): Promise<ChatMessage[]> {
  if (rows.length === 0) {
    return [];
  }
  const roles = await visitRoles(deps, appointment);
  return rows.map((row) => presentChatMessage(row, roles));
}

/** `GET /visits/:id/messages?after`: the doctor and the patient, during and after the visit. */
export async function getChatHistory(
  ctx: VisitContext,
  appointmentId: string,
  query: ChatHistoryQuery,
): Promise<ChatHistory> {
  const visit = await loadVisit(ctx, appointmentId);
  if (!canUseVisitRecord(visit.capacity)) {
    throw notFound();
  }
  const rows = await listVisitMessages(ctx.db, visit.appointment.id, query.after, query.limit);
  const data = await presentMessages(ctx, visit.appointment, rows);
  const visitRow = await findVisit(ctx.db, visit.appointment.id);
  return { data, lastSeq: visitRow?.chatSeq ?? 0 };
}
