import type { Language } from '@telemedicina/shared/i18n';
import {
  createPrescriptionRequestSchema,
  normalizeVerificationCode,
  type CancelPrescriptionRequest,
  type CreatePrescriptionRequest,
  type Prescription,
  type PrescriptionList,
  type PrescriptionVerification,
} from '@telemedicina/shared/prescriptions';
import { appError } from '../../lib/app-error.js';
import { t } from '../../text/catalogue.js';
import { type ServiceContext, requireActor } from '../context.js';
import { appLink } from '../email/email.service.js';
import type { FileStorage } from '../files/file-storage.js';
import { readClinicLogo } from '../settings/clinic-logo.service.js';
import { loadIdentitySettings } from '../settings/settings.service.js';
import { renderPrescriptionPdf } from './prescription-pdf.js';
import {
  notFound,
  requireIssueAccess,
  requireIssuer,
  requireReadAccess,
  type PrescriptionAccess,
} from './prescriptions.policy.js';
import {
  presentPrescription,
  presentPrescriptionSummary,
  presentVerification,
} from './prescriptions.presenter.js';
import {
  cancelPrescriptionRow,
  findDoctorSpecialtyNames,
  findPrescriptionByCode,
  findPrescriptionRecord,
  insertPrescription,
  isAppointmentBetween,
  listPatientPrescriptions,
  type PrescriptionRecord,
} from './prescriptions.repository.js';
import { generateVerificationCode } from './verification-code.js';

const isUuid = (value: string) =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);

function verificationUrlOf(ctx: ServiceContext, code: string): string {
  return appLink(ctx, `/verify/${code}`);
}

function accessDetails(access: PrescriptionAccess): Record<string, unknown> {
  return access.kind === 'emergency'
    ? { access: 'emergency', emergencyAccessId: access.accessId }
    : { access: access.kind };
}

/** Loads a prescription the actor may read (patient, issuer, treating or emergency doctor), else 404. */
async function loadReadable(
  ctx: ServiceContext,
  id: string,
): Promise<{ record: PrescriptionRecord; access: PrescriptionAccess }> {
  const actor = requireActor(ctx);
  const record = isUuid(id) ? await findPrescriptionRecord(ctx.db, id) : null;
  if (record === null) {
    throw notFound();
  }
  const access = await requireReadAccess(
    ctx.db,
    actor,
    record.patient.id,
    ctx.now(),
    record.prescription.doctorUserId,
  );
  return { record, access };
}

async function auditViewed(
  ctx: ServiceContext,
  record: PrescriptionRecord,
  access: PrescriptionAccess,
  format: 'json' | 'pdf',
): Promise<void> {
  await ctx.audit({
    action: 'prescription.viewed',
    targetType: 'patient',
    targetId: record.patient.id,
    details: { prescriptionId: record.prescription.id, format, ...accessDetails(access) },
  });
}

/**
 * A doctor issues a prescription to a patient they treat (or hold an emergency access to),
 * optionally tied to one of their appointments together. The verification code is random and
 * unique (a clash, at 60 bits, is retried).
 */
export async function issuePrescription(
  ctx: ServiceContext,
  patientUserId: string,
  request: CreatePrescriptionRequest,
): Promise<Prescription> {
  const actor = requireActor(ctx);
  const input = createPrescriptionRequestSchema.parse(request);
  const relationship = await requireIssueAccess(ctx.db, actor, patientUserId, ctx.now());
  const appointmentId = input.appointmentId ?? null;
  if (appointmentId !== null) {
    if (!(await isAppointmentBetween(ctx.db, appointmentId, actor.userId, patientUserId))) {
      throw appError('NOT_FOUND', 'No such appointment between this doctor and patient.');
    }
  }
  const items = input.items.map((item, index) => ({ ...item, position: index + 1 }));
  let row = null;
  for (let attempt = 0; row === null; attempt += 1) {
    try {
      row = await insertPrescription(
        ctx.db,
        {
          patientUserId,
          doctorUserId: actor.userId,
          appointmentId,
          verificationCode: generateVerificationCode(),
          notes: input.notes,
          issuedAt: ctx.now(),
        },
        items,
      );
    } catch (error) {
      if (attempt >= 2 || !isUniqueViolation(error)) {
        throw error;
      }
    }
  }
  await ctx.audit({
    action: 'prescription.issued',
    targetType: 'patient',
    targetId: patientUserId,
    details: {
      prescriptionId: row.id,
      appointmentId,
      itemsCount: items.length,
      ...accessDetails(relationship),
    },
  });
  const record = await findPrescriptionRecord(ctx.db, row.id);
  if (record === null) {
    throw notFound();
  }
  return presentPrescription(record, {
    verificationUrl: verificationUrlOf(ctx, record.prescription.verificationCode),
    viewerUserId: actor.userId,
  });
}

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown; cause?: { code?: unknown } } | null)?.code;
  const causeCode = (error as { cause?: { code?: unknown } } | null)?.cause?.code;
  return code === '23505' || causeCode === '23505';
}

/** A patient's prescriptions, newest first: the patient, or a doctor who treats them. */
export async function listPrescriptions(
  ctx: ServiceContext,
  patientUserId: string,
): Promise<PrescriptionList> {
  const actor = requireActor(ctx);
  if (!isUuid(patientUserId)) {
    throw notFound();
  }
  const access = await requireReadAccess(ctx.db, actor, patientUserId, ctx.now());
  const rows = await listPatientPrescriptions(ctx.db, patientUserId);
  await ctx.audit({
    action: 'prescription.viewed',
    targetType: 'patient',
    targetId: patientUserId,
    details: { list: true, count: rows.length, ...accessDetails(access) },
  });
  return { items: rows.map(presentPrescriptionSummary) };
}

export async function getPrescription(ctx: ServiceContext, id: string): Promise<Prescription> {
  const { record, access } = await loadReadable(ctx, id);
  await auditViewed(ctx, record, access, 'json');
  return presentPrescription(record, {
    verificationUrl: verificationUrlOf(ctx, record.prescription.verificationCode),
    viewerUserId: requireActor(ctx).userId,
  });
}

/** The printable PDF, in the patient's language whoever downloads it. */
export async function renderPrescriptionDocument(
  ctx: ServiceContext,
  storage: FileStorage,
  id: string,
): Promise<{ bytes: Buffer; fileName: string }> {
  const { record, access } = await loadReadable(ctx, id);
  const language: Language = record.patient.language === 'en' ? 'en' : 'es';
  const [settings, specialties, logo] = [
    await loadIdentitySettings(ctx.db, ctx.config),
    await findDoctorSpecialtyNames(ctx.db, record.doctor.id, language),
    await readClinicLogo(ctx, storage).catch(() => null),
  ];
  const bytes = await renderPrescriptionPdf(record, {
    language,
    clinicName: settings.clinicName,
    timeZone: record.patient.timeZone,
    logo:
      logo !== null && (logo.contentType === 'image/png' || logo.contentType === 'image/jpeg')
        ? logo.bytes
        : null,
    specialties,
    verificationUrl: verificationUrlOf(ctx, record.prescription.verificationCode),
  });
  await auditViewed(ctx, record, access, 'pdf');
  return {
    bytes,
    fileName: `${t(language, 'fileName.prescription')}-${record.prescription.verificationCode}.pdf`,
  };
}

/** The issuing doctor cancels an active prescription, with a reason; 409 when already cancelled. */
export async function cancelPrescription(
  ctx: ServiceContext,
  id: string,
  request: CancelPrescriptionRequest,
): Promise<Prescription> {
  const actor = requireActor(ctx);
  const existing = isUuid(id) ? await findPrescriptionRecord(ctx.db, id) : null;
  if (existing === null) {
    throw notFound();
  }
  requireIssuer(actor, existing.prescription.doctorUserId);
  const row = await cancelPrescriptionRow(ctx.db, id, ctx.now(), request.reason);
  if (row === null) {
    throw appError('CONFLICT', 'This prescription is already cancelled.');
  }
  await ctx.audit({
    action: 'prescription.cancelled',
    targetType: 'patient',
    targetId: existing.patient.id,
    details: { prescriptionId: id, reason: request.reason },
  });
  const record = { ...existing, prescription: row };
  return presentPrescription(record, {
    verificationUrl: verificationUrlOf(ctx, row.verificationCode),
    viewerUserId: actor.userId,
  });
}

/**
 * The public check of a printed code (typed by hand: case, dashes and O/I/L look-alikes are
 * forgiven). Audited with the prescription it found; unknown codes answer 404.
 */
export async function verifyPrescription(
  ctx: ServiceContext,
  typedCode: string,
): Promise<PrescriptionVerification> {
  const code = normalizeVerificationCode(typedCode);
  const record = code === null ? null : await findPrescriptionByCode(ctx.db, code);
  if (record === null) {
    throw appError('NOT_FOUND', 'No prescription has this verification code. Check the code and try again.');
  }
  await ctx.audit({
    action: 'prescription.verified',
    targetType: 'prescription',
    targetId: record.prescription.id,
    details: { prescriptionId: record.prescription.id, status: record.prescription.status },
  });
  return presentVerification(record);
}
