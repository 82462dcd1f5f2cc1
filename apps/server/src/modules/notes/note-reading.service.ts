import type { ChartNoteList, NoteEnvelope } from '@telemedicina/shared/notes';
import { appError } from '../../lib/app-error.js';
import { type ServiceContext, requireActor } from '../context.js';
import { authorizeChartRead } from '../records/records.policy.js';
import { loadAppointment, presentFor } from './note-loading.js';
import { accessDetails, resolveNoteAccess } from './notes.policy.js';
import { presentChartNote, presentVitals } from './notes.presenter.js';
import { findNoteByAppointment, findVitals, listChartNotes } from './notes.repository.js';

/**
 * `GET /appointments/:id/note`: the note and the reported vitals. The patient sees the note only
 * once signed (null before). Audited (`record.viewed`, section `note`) when it returns any data.
 */
export async function getNoteEnvelope(ctx: ServiceContext, appointmentId: string): Promise<NoteEnvelope> {
  const actor = requireActor(ctx);
  const appointment = await loadAppointment(ctx, appointmentId);
  const access = await resolveNoteAccess(ctx.db, actor, appointment, ctx.now());
  const stored = await findNoteByAppointment(ctx.db, appointment.id);
  const note = stored !== null && (access.kind !== 'self' || stored.status === 'signed') ? stored : null;
  const vitals = await findVitals(ctx.db, appointment.id);
  if (note !== null || vitals !== null) {
    await ctx.audit({
      action: 'record.viewed',
      targetType: 'patient',
      targetId: appointment.patientUserId,
      details: {
        section: 'note',
        appointmentId: appointment.id,
        noteId: note?.id ?? null,
        parts: [...(note === null ? [] : ['note']), ...(vitals === null ? [] : ['vitals'])],
        ...accessDetails(access),
      },
    });
  }
  return {
    note: note === null ? null : await presentFor(ctx, access, appointment, note),
    vitals: vitals === null ? null : presentVitals(vitals),
  };
}

/** `GET /patients/:patientId/notes`: treating doctors see every note; the patient their signed ones. */
export async function listPatientNotes(ctx: ServiceContext, patientId: string): Promise<ChartNoteList> {
  const actor = requireActor(ctx);
  const grant = await authorizeChartRead(ctx.db, actor, patientId, ctx.now());
  if (grant.access === 'administrative') {
    throw appError('NOT_FOUND', 'No such patient.');
  }
  const rows = await listChartNotes(ctx.db, patientId, grant.access === 'self');
  await ctx.audit({
    action: 'record.viewed',
    targetType: 'patient',
    targetId: patientId,
    details: {
      section: 'notes',
      count: rows.length,
      access: grant.access,
      emergency: grant.emergency !== null,
      ...(grant.emergency === null
        ? {}
        : { emergencyAccessId: grant.emergency.accessId, reason: grant.emergency.reason }),
    },
  });
  return { items: rows.map(presentChartNote) };
}
