import type { Permission } from '@telemedicina/shared/permission-catalogue';
import type { VisitPhase } from '@telemedicina/shared/visits';

/**
 * Who is asking about a visit: a signed-in user (REST or socket) or a
 * redeemed guest of exactly one visit.
 */
export type VisitCaller =
  | { kind: 'user'; userId: string; permissions: ReadonlySet<Permission> }
  | { kind: 'guest'; guestId: string; appointmentId: string };

/**
 * The capacity in which the caller takes part in a visit: its `doctor` (host,
 * with `visits.host`), its `patient` (with `visits.join`), an invited `guest`,
 * or `staff` who may only look (`appointments.read.any`). Null: nothing to
 * see, which answers 404 so the visit's existence is not revealed.
 */
export type VisitCapacity = 'doctor' | 'patient' | 'guest' | 'staff';

export function visitCapacityOf(
  caller: VisitCaller,
  appointment: { id: string; doctorUserId: string; patientUserId: string },
): VisitCapacity | null {
  if (caller.kind === 'guest') {
    return caller.appointmentId === appointment.id ? 'guest' : null;
  }
  if (appointment.doctorUserId === caller.userId && caller.permissions.has('visits.host')) {
    return 'doctor';
  }
  if (appointment.patientUserId === caller.userId && caller.permissions.has('visits.join')) {
    return 'patient';
  }
  if (caller.permissions.has('appointments.read.any')) {
    return 'staff';
  }
  return null;
}

/** Participants enter the visit's rooms; staff only read its state. */
export function isVisitParticipant(
  capacity: VisitCapacity | null,
): capacity is 'doctor' | 'patient' | 'guest' {
  return capacity === 'doctor' || capacity === 'patient' || capacity === 'guest';
}

/** The doctor and the patient read the chat history over REST and share files. */
export function canUseVisitRecord(capacity: VisitCapacity | null): capacity is 'doctor' | 'patient' {
  return capacity === 'doctor' || capacity === 'patient';
}

/**
 * Who reads the visit's chat — its messages and the files shared in it: the doctor and the patient
 * always (the visit's record, also afterwards); a guest only while in the call (admitted by the
 * doctor, `phase` `in_call`), then everything shared so far, as the call's participants see it. A
 * guest in the waiting room, or after the visit, reads nothing. The socket's join and the REST file
 * download both decide with this.
 */
export function canReadVisitChat(capacity: VisitCapacity | null, phase: VisitPhase): boolean {
  return canUseVisitRecord(capacity) || (capacity === 'guest' && phase === 'in_call');
}

/** Inviting a guest takes `visits.invite` and being the visit's doctor or patient. */
export function canInviteToVisit(caller: VisitCaller, capacity: VisitCapacity | null): boolean {
  return caller.kind === 'user' && caller.permissions.has('visits.invite') && canUseVisitRecord(capacity);
}

/** Who may follow a doctor's waiting room: that doctor (host), or staff who see every appointment. */
export function canWatchWaitingRoom(caller: VisitCaller, doctorId: string): boolean {
  if (caller.kind !== 'user') {
    return false;
  }
  return (
    (caller.userId === doctorId && caller.permissions.has('visits.host')) ||
    caller.permissions.has('appointments.read.any')
  );
}
