import type { JoinWaitlistRequest, Language, WaitlistEntry } from '@telemedicina/shared';
import { AppError } from '../../lib/app-error.js';
import type { AppointmentRow } from '../appointments/appointments.repository.js';
import { findDoctorOr404 } from '../availability/availability.service.js';
import type { ServiceContext } from '../context.js';
import { appLink, sendEmail } from '../email/email.service.js';
import { requireActor } from '../me/actor.js';
import { notify } from '../notifications/notifications.service.js';
import {
  deleteWaitlistEntry,
  findWaitingFor,
  markWaitlistNotified,
  upsertWaitlistEntry,
  type WaitlistRow,
} from './waitlist.repository.js';

/** How many waiting patients a freed slot is offered to. */
export const waitlistNotifyCount = 3;

function present(row: WaitlistRow): WaitlistEntry {
  return {
    doctorId: row.doctorUserId,
    before: row.before?.toISOString() ?? null,
    notifiedAt: row.notifiedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** A patient joins a doctor's waiting list (again: updates `before`). 404 for no such doctor. */
export async function joinWaitlist(
  ctx: ServiceContext,
  doctorId: string,
  request: JoinWaitlistRequest,
): Promise<WaitlistEntry> {
  const actor = requireActor(ctx);
  const doctor = await findDoctorOr404(ctx, doctorId);
  if (doctor.status !== 'active' || doctor.userId === actor.userId) {
    throw new AppError(404, 'NOT_FOUND', 'No such doctor.');
  }
  const row = await upsertWaitlistEntry(ctx.db.db, {
    doctorUserId: doctor.userId,
    patientUserId: actor.userId,
    before: request.before === undefined || request.before === null ? null : new Date(request.before),
    createdAt: ctx.now(),
  });
  return present(row);
}

/** Leaves the list; 404 when the patient was not on it. */
export async function leaveWaitlist(ctx: ServiceContext, doctorId: string): Promise<void> {
  const actor = requireActor(ctx);
  const doctor = await findDoctorOr404(ctx, doctorId);
  if (!(await deleteWaitlistEntry(ctx.db.db, doctor.userId, actor.userId))) {
    throw new AppError(404, 'NOT_FOUND', 'You are not on this waiting list.');
  }
}

/**
 * After a cancellation frees a future slot: tells the first waiting patients
 * (notification and email) and stamps them notified.
 */
export async function offerFreedSlot(
  ctx: ServiceContext,
  appointment: AppointmentRow,
  doctorName: string,
): Promise<number> {
  const now = ctx.now();
  if (appointment.startsAt <= now) {
    return 0;
  }
  const waiting = await findWaitingFor(
    ctx.db.db,
    appointment.doctorUserId,
    appointment.startsAt,
    appointment.patientUserId,
    waitlistNotifyCount,
  );
  for (const patient of waiting) {
    await sendEmail(ctx, patient.email, patient.language as Language, {
      template: 'waitlist-slot-freed',
      data: {
        name: patient.name,
        doctorName,
        startsAt: appointment.startsAt,
        timeZone: patient.timeZone,
        link: appLink(ctx, `/admin/doctors/${appointment.doctorUserId}`),
      },
    });
    await notify(ctx, [
      {
        userId: patient.patientUserId,
        kind: 'waitlist.slotFreed',
        data: { doctorId: appointment.doctorUserId, startsAt: appointment.startsAt.toISOString() },
        createdAt: now,
      },
    ]);
    await markWaitlistNotified(ctx.db.db, patient.id, now);
  }
  return waiting.length;
}
