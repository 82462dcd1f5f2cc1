import type {
  PatientListQuery,
  PatientPage,
  updatePatientProfileRequestSchema,
} from '@telemedicina/shared/records';
import type { z } from 'zod';
import { appError } from '../../lib/app-error.js';
import { type ServiceContext, requireActor } from '../context.js';
import { accessDetails } from './chart-audit.js';
import { listPatients, updateUserDemographics, upsertPatientProfile } from './patients.repository.js';
import { authorizeProfileWrite } from './records.policy.js';
import { presentPatientSummary } from './records.presenter.js';

/**
 * `GET /patients`: a doctor's own patients (records.read: those with a non-cancelled
 * appointment), or every patient for staff (patients.read.admin). The listing is audited.
 */
export async function listPatientsFor(ctx: ServiceContext, query: PatientListQuery): Promise<PatientPage> {
  const actor = requireActor(ctx);
  const doctorId = actor.permissions.has('patients.read.admin') ? null : actor.userId;
  const { rows, total } = await listPatients(ctx.db, {
    doctorId,
    q: query.q,
    page: query.page,
    pageSize: query.pageSize,
    now: ctx.now(),
  });
  await ctx.audit({
    action: 'patient.list_viewed',
    targetType: 'patient',
    details: {
      scope: doctorId === null ? 'all' : 'own',
      q: query.q ?? null,
      page: query.page,
      count: rows.length,
    },
  });
  return { data: rows.map(presentPatientSummary), page: query.page, pageSize: query.pageSize, total };
}

type ProfileUpdate = z.output<typeof updatePatientProfileRequestSchema>;

/** `PATCH /patients/:patientId/profile`: audited with the names of the changed fields, never their values. */
export async function updatePatientProfile(
  ctx: ServiceContext,
  patientId: string,
  body: ProfileUpdate,
): Promise<void> {
  const actor = requireActor(ctx);
  const fields = Object.keys(body).filter((key) => body[key as keyof ProfileUpdate] !== undefined);
  const grant = await authorizeProfileWrite(ctx.db, actor, patientId, fields, ctx.now());
  if (fields.length === 0) {
    throw appError('VALIDATION_FAILED', 'Nothing to change.', {
      issues: [{ location: 'body', path: '', code: 'empty', message: 'validation.required' }],
    });
  }
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    await updateUserDemographics(
      tx,
      patientId,
      {
        ...(body.name === undefined ? {} : { name: body.name }),
        ...(body.phone === undefined ? {} : { phone: body.phone }),
        ...(body.dateOfBirth === undefined ? {} : { dateOfBirth: body.dateOfBirth }),
      },
      now,
    );
    const contact = body.emergencyContact;
    await upsertPatientProfile(
      tx,
      patientId,
      {
        ...(body.sex === undefined ? {} : { sex: body.sex }),
        ...(body.address === undefined ? {} : { address: body.address }),
        ...(body.bloodType === undefined ? {} : { bloodType: body.bloodType }),
        ...(body.identityDocument === undefined
          ? {}
          : {
              identityDocumentType: body.identityDocument.type,
              identityDocumentNumber: body.identityDocument.number,
            }),
        ...(contact?.name === undefined ? {} : { emergencyContactName: contact.name }),
        ...(contact?.phone === undefined ? {} : { emergencyContactPhone: contact.phone }),
        ...(contact?.relation === undefined ? {} : { emergencyContactRelation: contact.relation }),
        updatedByUserId: actor.userId,
      },
      now,
    );
  });
  await ctx.audit({
    action: 'record.updated',
    targetType: 'patient',
    targetId: patientId,
    details: { section: 'profile', operation: 'changed', fields, ...accessDetails(grant) },
  });
}
