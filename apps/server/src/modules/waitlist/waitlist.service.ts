import type { Language } from '@telemedicina/shared/i18n';
import type { JoinWaitlistRequest, WaitlistEntry } from '@telemedicina/shared/notifications';
import type { Database } from '../../db/client.js';
import { appError } from '../../lib/app-error.js';
import { findDoctorOr404 } from '../availability/availability.service.js';
import { type ServiceContext, requireActor } from '../context.js';
import { appLink } from '../email/email.service.js';
import { renderEmail } from '../email/templates.js';
import { storeNotifications } from '../notifications/notifications.service.js';
import { loadIdentitySettings } from '../settings/settings.service.js';
import {
  deleteWaitlistEntry,
  findWaitlistEntry,
  findWaitingFor,
  markWaitlistNotified,
  upsertWaitlistEntry,
  type WaitlistRow,
} from './waitlist.repository.js';

/** How many waiting patients a freed slot is offered to. */
export const waitlistNotifyCount = 3;

/** The cancelled appointment whose time is offered (the appointments module calls with its row). */
export interface FreedSlot {
  doctorUserId: string;
  patientUserId: string;
  startsAt: Date;
}

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
    throw appError('NOT_FOUND', 'No such doctor.');
  }
  const row = await upsertWaitlistEntry(ctx.db, {
    doctorUserId: doctor.userId,
    patientUserId: actor.userId,
    before: request.before === undefined || request.before === null ? null : new Date(request.before),
    createdAt: ctx.now(),
  });
  return present(row);
}

/** The patient's own entry on the doctor's list; 404 when not on it (or no such doctor). */
export async function getMyWaitlistEntry(ctx: ServiceContext, doctorId: string): Promise<WaitlistEntry> {
  const actor = requireActor(ctx);
  const doctor = await findDoctorOr404(ctx, doctorId);
  const row = await findWaitlistEntry(ctx.db, doctor.userId, actor.userId);
  if (row === null) {
    throw appError('NOT_FOUND', 'You are not on this waiting list.');
  }
  return present(row);
}

/** Leaves the list; 404 when the patient was not on it. */
export async function leaveWaitlist(ctx: ServiceContext, doctorId: string): Promise<void> {
  const actor = requireActor(ctx);
  const doctor = await findDoctorOr404(ctx, doctorId);
  if (!(await deleteWaitlistEntry(ctx.db, doctor.userId, actor.userId))) {
    throw appError('NOT_FOUND', 'You are not on this waiting list.');
  }
}

/**
 * After a cancellation frees a future slot, in the cancellation's
 * transaction (`db`): stores for the first waiting patients an email and a
 * notification and stamps them notified. Returns what to start after the
 * commit (delivery, pushes).
 */
export async function offerFreedSlot(
  ctx: ServiceContext,
  db: Database,
  appointment: FreedSlot,
  doctorName: string,
): Promise<() => void> {
  const now = ctx.now();
  if (appointment.startsAt <= now) {
    return () => undefined;
  }
  const waiting = await findWaitingFor(
    db,
    appointment.doctorUserId,
    appointment.startsAt,
    appointment.patientUserId,
    waitlistNotifyCount,
  );
  if (waiting.length === 0) {
    return () => undefined;
  }
  const { clinicName } = await loadIdentitySettings(db, ctx.config);
  const work: (() => void)[] = [];
  for (const patient of waiting) {
    const language = patient.language as Language;
    const content = {
      template: 'waitlist-slot-freed',
      data: {
        name: patient.name,
        doctorName,
        startsAt: appointment.startsAt,
        timeZone: patient.timeZone,
        // The waiting patient books in their portal: patients live there, not in the admin area.
        link: appLink(ctx, `/portal/doctors/${appointment.doctorUserId}`),
      },
    } as const;
    const stored = await ctx.mailer.store(db, {
      to: patient.email,
      language,
      template: content.template,
      ...renderEmail(content, language, clinicName),
    });
    work.push(stored.deliver);
    work.push(
      await storeNotifications(ctx, db, [
        {
          userId: patient.patientUserId,
          kind: 'waitlist.slotFreed',
          data: { doctorId: appointment.doctorUserId, startsAt: appointment.startsAt.toISOString() },
          createdAt: now,
        },
      ]),
    );
    await markWaitlistNotified(db, patient.id, now);
  }
  return () => {
    for (const run of work) {
      run();
    }
  };
}
