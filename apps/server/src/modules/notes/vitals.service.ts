import { type ReportVitalsRequest, type VitalsResponse, vitalNames } from '@telemedicina/shared/notes';
import { appError } from '../../lib/app-error.js';
import { type ServiceContext, requireActor } from '../context.js';
import { auditIn, loadAppointment, noteSigned } from './note-loading.js';
import { accessDetails, requireVitalsReporter, resolveNoteAccess, vitalsStatuses } from './notes.policy.js';
import { presentVitals } from './notes.presenter.js';
import { findVitals, lockNoteStatus, upsertVitals } from './notes.repository.js';

/** `GET /appointments/:id/vitals`: the patient's own report, or a doctor reading it. Audited when any. */
export async function getVitals(ctx: ServiceContext, appointmentId: string): Promise<VitalsResponse> {
  const actor = requireActor(ctx);
  const appointment = await loadAppointment(ctx, appointmentId);
  const access = await resolveNoteAccess(ctx.db, actor, appointment, ctx.now());
  const vitals = await findVitals(ctx.db, appointment.id);
  if (vitals !== null) {
    await ctx.audit({
      action: 'record.viewed',
      targetType: 'patient',
      targetId: appointment.patientUserId,
      details: { section: 'vitals', appointmentId: appointment.id, ...accessDetails(access) },
    });
  }
  return { vitals: vitals === null ? null : presentVitals(vitals) };
}

/**
 * `PUT /appointments/:id/vitals`: the patient replaces what they reported, until the note is signed
 * (409 NOTE_SIGNED; the note's row lock orders this against signing) and never on a cancelled visit.
 */
export async function reportVitals(
  ctx: ServiceContext,
  appointmentId: string,
  request: ReportVitalsRequest,
): Promise<VitalsResponse> {
  const actor = requireActor(ctx);
  const appointment = await loadAppointment(ctx, appointmentId);
  const access = await requireVitalsReporter(ctx.db, actor, appointment, ctx.now());
  if (!vitalsStatuses.includes(appointment.status)) {
    throw appError(
      'CONFLICT',
      `Vitals cannot be reported: the appointment is ${appointment.status.replace('_', ' ')}.`,
      { status: appointment.status },
    );
  }
  const now = ctx.now();
  const values = Object.fromEntries(vitalNames.map((name) => [name, request[name] ?? null])) as Record<
    (typeof vitalNames)[number],
    number | null
  >;
  const row = await ctx.db.transaction(async (tx) => {
    if ((await lockNoteStatus(tx, appointment.id)) === 'signed') {
      throw noteSigned();
    }
    const stored = await upsertVitals(tx, {
      appointmentId: appointment.id,
      patientUserId: appointment.patientUserId,
      ...values,
      reportedAt: now,
    });
    await auditIn(ctx, tx, {
      action: 'vitals.reported',
      targetType: 'patient',
      targetId: appointment.patientUserId,
      details: {
        section: 'vitals',
        appointmentId: appointment.id,
        fields: vitalNames.filter((name) => values[name] !== null),
        ...accessDetails(access),
      },
    });
    return stored;
  });
  return { vitals: presentVitals(row) };
}
