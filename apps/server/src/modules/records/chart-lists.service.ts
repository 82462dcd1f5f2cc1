import type {
  Allergy,
  Condition,
  Medication,
  createAllergyRequestSchema,
  createConditionRequestSchema,
  createMedicationRequestSchema,
} from '@telemedicina/shared/records';
import type { z } from 'zod';
import { appError } from '../../lib/app-error.js';
import { type ServiceContext, requireActor } from '../context.js';
import { loadActorUser } from '../identity/actor.js';
import { isUuid } from '../../lib/uuid.js';
import { accessDetails } from './chart-audit.js';
import {
  diagnosisCodeExists,
  insertAllergy,
  insertCondition,
  insertMedication,
  listConditions,
  markListEntryRemoved,
  type ChartListKind,
} from './chart-lists.repository.js';
import { authorizeClinicalWrite, type ChartGrant } from './records.policy.js';
import { presentAllergy, presentCondition, presentMedication } from './records.presenter.js';

async function auditListChange(
  ctx: ServiceContext,
  grant: ChartGrant,
  section: ChartListKind,
  operation: 'added' | 'removed',
  entryId: string,
  fields: string[],
): Promise<void> {
  await ctx.audit({
    action: 'record.updated',
    targetType: 'patient',
    targetId: grant.patient.id,
    details: { section, operation, entryId, fields, ...accessDetails(grant) },
  });
}

/** The names of the fields a request set (for the audit trail; values of clinical text are never logged). */
function setFields(body: Record<string, unknown>): string[] {
  return Object.keys(body).filter((key) => body[key] !== undefined && body[key] !== null);
}

export async function addAllergy(
  ctx: ServiceContext,
  patientId: string,
  body: z.output<typeof createAllergyRequestSchema>,
): Promise<Allergy> {
  const actor = requireActor(ctx);
  const grant = await authorizeClinicalWrite(ctx.db, actor, patientId, ctx.now());
  const row = await insertAllergy(ctx.db, {
    patientUserId: patientId,
    substance: body.substance,
    reaction: body.reaction ?? null,
    severity: body.severity,
    recordedByUserId: actor.userId,
    recordedAt: ctx.now(),
  });
  await auditListChange(ctx, grant, 'allergies', 'added', row.id, setFields(body));
  return presentAllergy({ ...row, recordedByName: null, removedByName: null });
}

export async function addCondition(
  ctx: ServiceContext,
  patientId: string,
  body: z.output<typeof createConditionRequestSchema>,
): Promise<Condition> {
  const actor = requireActor(ctx);
  const grant = await authorizeClinicalWrite(ctx.db, actor, patientId, ctx.now());
  const code = body.diagnosisCode ?? null;
  if (code !== null && !(await diagnosisCodeExists(ctx.db, code))) {
    throw appError('VALIDATION_FAILED', 'The request is not valid.', {
      issues: [
        {
          location: 'body',
          path: 'diagnosisCode',
          code: 'unknown_code',
          message: 'records.validation.unknownDiagnosisCode',
        },
      ],
    });
  }
  const row = await insertCondition(ctx.db, {
    patientUserId: patientId,
    description: body.description,
    diagnosisCode: code,
    status: body.status,
    onsetDate: body.onsetDate ?? null,
    recordedByUserId: actor.userId,
    recordedAt: ctx.now(),
  });
  await auditListChange(ctx, grant, 'conditions', 'added', row.id, setFields(body));
  const [presented] = (await listConditions(ctx.db, patientId, false)).filter((entry) => entry.id === row.id);
  const language = (await loadActorUser(ctx)).language;
  return presentCondition(
    presented ?? { ...row, nameEs: null, nameEn: null, recordedByName: null, removedByName: null },
    language,
  );
}

export async function addMedication(
  ctx: ServiceContext,
  patientId: string,
  body: z.output<typeof createMedicationRequestSchema>,
): Promise<Medication> {
  const actor = requireActor(ctx);
  const grant = await authorizeClinicalWrite(ctx.db, actor, patientId, ctx.now());
  const row = await insertMedication(ctx.db, {
    patientUserId: patientId,
    name: body.name,
    dose: body.dose ?? null,
    frequency: body.frequency ?? null,
    startedOn: body.startedOn ?? null,
    stoppedOn: body.stoppedOn ?? null,
    recordedByUserId: actor.userId,
    recordedAt: ctx.now(),
  });
  await auditListChange(ctx, grant, 'medications', 'added', row.id, setFields(body));
  return presentMedication({ ...row, recordedByName: null, removedByName: null });
}

/** Removes an entry of a list: `removed_at`/`removed_by` are set, the row stays as history. */
export async function removeListEntry(
  ctx: ServiceContext,
  kind: ChartListKind,
  patientId: string,
  entryId: string,
): Promise<void> {
  const actor = requireActor(ctx);
  const grant = await authorizeClinicalWrite(ctx.db, actor, patientId, ctx.now());
  const isRemoved =
    isUuid(entryId) &&
    (await markListEntryRemoved(ctx.db, kind, patientId, entryId, actor.userId, ctx.now()));
  if (!isRemoved) {
    throw appError('NOT_FOUND', 'No such entry.');
  }
  await auditListChange(ctx, grant, kind, 'removed', entryId, []);
}
