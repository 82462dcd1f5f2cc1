import { type createAllergyRequestSchema, type createConditionRequestSchema, type createMedicationRequestSchema, type updatePatientProfileRequestSchema, emergencyAccessMinutes, type Allergy, type Chart, type ChartQuery, type Condition, type EmergencyAccess, type EmergencyAccessRequest, type Medication, type PatientListQuery, type PatientPage, type RecordAccessPage, type RecordAccessQuery } from '@telemedicina/shared';
import type { z } from 'zod';
import { AppError } from '../../lib/app-error.js';
import { type ServiceContext, requireActor } from '../context.js';
import { loadActorUser } from '../identity/actor.js';
import { notify } from '../notifications/notifications.service.js';
import { loadCanStaffReadVisitReasons } from '../settings/settings.service.js';
import { isUuid } from '../../lib/uuid.js';
import { listChartDocuments } from './documents.service.js';
import { findCareRelationship } from './care-relationship.js';
import {
  authorizeChartRead,
  authorizeClinicalWrite,
  authorizeProfileWrite,
  notFound,
  type ChartGrant,
} from './records.policy.js';
import {
  presentAdministrativeChart,
  presentAllergy,
  presentCondition,
  presentMedication,
  presentPatientSummary,
  presentRecordAccessEntry,
} from './records.presenter.js';
import {
  diagnosisCodeExists,
  findPatientUser,
  insertAllergy,
  insertCondition,
  insertEmergencyAccess,
  insertMedication,
  listConditions,
  listPatients,
  listRecordAccessEvents,
  markListEntryRemoved,
  readChartData,
  upsertPatientProfile,
  updateUserDemographics,
  type ChartListKind,
} from './records.repository.js';

/** How many past visits and prescriptions the chart lists (newest first). */
const chartListLimit = 200;

/** What every chart audit event carries about how the chart was reached. */
function accessDetails(grant: ChartGrant): Record<string, unknown> {
  return grant.emergency === null
    ? { access: grant.access, emergency: false }
    : {
        access: grant.access,
        emergency: true,
        emergencyAccessId: grant.emergency.accessId,
        reason: grant.emergency.reason,
      };
}

/**
 * `GET /patients`: a doctor's own patients (records.read: those with a non-cancelled
 * appointment), or every patient for staff (patients.read.admin). The listing is audited.
 */
export async function listPatientsFor(ctx: ServiceContext, query: PatientListQuery): Promise<PatientPage> {
  const actor = requireActor(ctx);
  const doctorId = actor.permissions.has('patients.read.admin') ? null : actor.userId;
  const { rows, total } = await listPatients(ctx.db.db, {
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

/** `GET /patients/:patientId/chart`: the whole chart for its readers, the administrative part for staff. */
export async function readChart(ctx: ServiceContext, patientId: string, query: ChartQuery): Promise<Chart> {
  const actor = requireActor(ctx);
  const grant = await authorizeChartRead(ctx.db.db, actor, patientId, ctx.now());
  const db = ctx.db.db;
  const isClinical = grant.access !== 'administrative';
  const includeRemoved = isClinical && query.include === 'removed';
  // One statement for the profile, visits and clinical lists; the documents alongside it.
  const [data, documents, withReasons] = await Promise.all([
    readChartData(db, {
      patientId,
      readerUserId: actor.userId,
      clinical: isClinical,
      includeRemoved,
      limit: chartListLimit,
    }),
    isClinical
      ? listChartDocuments(ctx, grant, { includeRemoved, limit: chartListLimit, offset: 0 })
      : Promise.resolve(null),
    // Clinical readers read the reasons for the visits; staff as for appointments
    // (`canReadVisitReason`): only when the clinic's privacy setting allows it.
    isClinical ? Promise.resolve(true) : loadCanStaffReadVisitReasons(db),
  ]);
  const { profile, visits } = data;
  const chart = presentAdministrativeChart({
    patient: grant.patient,
    profile,
    access: grant.access,
    emergencyExpiresAt: grant.emergency?.expiresAt ?? null,
    visits,
    withReasons,
  });
  if (data.clinical !== null && documents !== null) {
    const { readerLanguage: language, allergies, conditions, medications, prescriptions } = data.clinical;
    if (language === null) {
      // The reader's account is gone (what loadActorUser answers).
      throw new AppError(401, 'UNAUTHENTICATED', 'Sign in to continue.');
    }
    chart.clinical = {
      bloodType: profile?.bloodType ?? null,
      allergies: allergies.map(presentAllergy),
      conditions: conditions.map((row) => presentCondition(row, language)),
      medications: medications.map(presentMedication),
      prescriptions: prescriptions.map((row) => ({
        id: row.id,
        issuedAt: row.issuedAt.toISOString(),
        status: row.status,
        doctor: { id: row.doctorId, name: row.doctorName },
        itemCount: Number(row.itemCount),
      })),
      documents: documents.data,
    };
  }
  await ctx.audit({
    action: 'record.viewed',
    targetType: 'patient',
    targetId: patientId,
    details: {
      section: 'chart',
      parts: isClinical ? ['administrative', 'clinical'] : ['administrative'],
      includeRemoved,
      ...accessDetails(grant),
    },
  });
  return chart;
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
  const grant = await authorizeProfileWrite(ctx.db.db, actor, patientId, fields, ctx.now());
  if (fields.length === 0) {
    throw new AppError(400, 'VALIDATION_FAILED', 'Nothing to change.', {
      issues: [{ location: 'body', path: '', code: 'empty', message: 'validation.required' }],
    });
  }
  const now = ctx.now();
  await ctx.db.db.transaction(async (tx) => {
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
  const grant = await authorizeClinicalWrite(ctx.db.db, actor, patientId, ctx.now());
  const row = await insertAllergy(ctx.db.db, {
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
  const grant = await authorizeClinicalWrite(ctx.db.db, actor, patientId, ctx.now());
  const code = body.diagnosisCode ?? null;
  if (code !== null && !(await diagnosisCodeExists(ctx.db.db, code))) {
    throw new AppError(400, 'VALIDATION_FAILED', 'The request is not valid.', {
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
  const row = await insertCondition(ctx.db.db, {
    patientUserId: patientId,
    description: body.description,
    diagnosisCode: code,
    status: body.status,
    onsetDate: body.onsetDate ?? null,
    recordedByUserId: actor.userId,
    recordedAt: ctx.now(),
  });
  await auditListChange(ctx, grant, 'conditions', 'added', row.id, setFields(body));
  const [presented] = (await listConditions(ctx.db.db, patientId, false)).filter(
    (entry) => entry.id === row.id,
  );
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
  const grant = await authorizeClinicalWrite(ctx.db.db, actor, patientId, ctx.now());
  const row = await insertMedication(ctx.db.db, {
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
  const grant = await authorizeClinicalWrite(ctx.db.db, actor, patientId, ctx.now());
  const isRemoved =
    isUuid(entryId) &&
    (await markListEntryRemoved(ctx.db.db, kind, patientId, entryId, actor.userId, ctx.now()));
  if (!isRemoved) {
    throw new AppError(404, 'NOT_FOUND', 'No such entry.');
  }
  await auditListChange(ctx, grant, kind, 'removed', entryId, []);
}

/**
 * `POST /patients/:patientId/emergency-access`: a doctor with records.emergency who does not
 * treat the patient opens the chart for `emergencyAccessMinutes`, stating why. Audited with the
 * reason; the patient is notified in the app and sees it in their access log.
 */
export async function grantEmergencyAccess(
  ctx: ServiceContext,
  patientId: string,
  body: EmergencyAccessRequest,
): Promise<EmergencyAccess> {
  const actor = requireActor(ctx);
  const patient = isUuid(patientId) ? await findPatientUser(ctx.db.db, patientId) : null;
  if (patient === null || patient.id === actor.userId) {
    throw notFound();
  }
  const now = ctx.now();
  const relationship = await findCareRelationship(ctx.db.db, actor.userId, patientId, now);
  if (relationship.kind === 'treating') {
    throw new AppError(409, 'CONFLICT', 'You already treat this patient: open the chart directly.');
  }
  const expiresAt = new Date(now.getTime() + emergencyAccessMinutes * 60_000);
  const row = await insertEmergencyAccess(ctx.db.db, {
    doctorUserId: actor.userId,
    patientUserId: patientId,
    reason: body.reason,
    grantedAt: now,
    expiresAt,
  });
  await ctx.audit({
    action: 'record.emergency_access',
    targetType: 'patient',
    targetId: patientId,
    details: {
      section: 'chart',
      emergency: true,
      emergencyAccessId: row.id,
      reason: body.reason,
      expiresAt: expiresAt.toISOString(),
    },
  });
  await notify(ctx, [
    {
      userId: patientId,
      kind: 'record.emergencyAccess',
      data: { doctorId: actor.userId, grantedAt: now.toISOString(), expiresAt: expiresAt.toISOString() },
      createdAt: now,
    },
  ]);
  return {
    id: row.id,
    patientId,
    grantedAt: row.grantedAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
  };
}

/** `GET /me/record-access`: who viewed or changed the signed-in patient's record, newest first. */
export async function listMyRecordAccess(
  ctx: ServiceContext,
  query: RecordAccessQuery,
): Promise<RecordAccessPage> {
  const actor = requireActor(ctx);
  const { rows, total } = await listRecordAccessEvents(ctx.db.db, actor.userId, query);
  return {
    data: rows.map(presentRecordAccessEntry),
    page: query.page,
    pageSize: query.pageSize,
    total,
  };
}
