import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import {
  recordExportFormat,
  recordExportSchema,
  recordExportVersion,
  type AdminRecordExportRequest,
  type ExportedDocument,
  type ExportedPrescription,
  type RecordExport,
} from '@telemedicina/shared/export';
import type { Language } from '@telemedicina/shared/i18n';
import { appError } from '../../lib/app-error.js';
import { writeZip, zipMaxBytes, type ZipEntry } from '../../lib/zip.js';
import { t } from '../../text/catalogue.js';
import { type ServiceContext, requireActor } from '../context.js';
import { appLink } from '../email/email.service.js';
import type { FileStorage } from '../files/file-storage.js';
import { loadActorUser } from '../identity/actor.js';
import { notify } from '../notifications/notifications.service.js';
import { renderPrescriptionPdf } from '../prescriptions/prescription-pdf.js';
import {
  findDoctorSpecialtyNames,
  findPrescriptionRecord,
  type PrescriptionRecord,
} from '../prescriptions/prescriptions.repository.js';
import {
  presentAllergy,
  presentCondition,
  presentMedication,
  presentRecordAccessEntry,
} from '../records/records.presenter.js';
import { listAllergies, listConditions, listMedications } from '../records/chart-lists.repository.js';
import { findPatientProfile } from '../records/patients.repository.js';
import { listRecordAccessEvents } from '../records/record-access.repository.js';
import { readClinicLogo } from '../settings/clinic-logo.service.js';
import { loadIdentitySettings } from '../settings/settings.service.js';
import { findUserById } from '../identity/users.repository.js';
import { listResponsesOfPatient } from '../questionnaires/questionnaires.repository.js';
import { renderReadme } from './export-readme.js';
import {
  exportableIntake,
  intakeBundlePath,
  presentIntakeBundle,
  presentIntakeSummaries,
} from './export-intake.js';
import { recordSummaryFileName, renderRecordSummaryPdf } from './record-summary-pdf.js';
import { authorizeAdminExport, authorizeOwnExport, type ExportGrant } from './export.policy.js';
import {
  calendarDate,
  createZipPathAllocator,
  presentExportAppointment,
  presentExportDocument,
  presentExportNote,
  presentExportPrescription,
  presentExportVitals,
  safeFileName,
} from './export.presenter.js';
import {
  listExportAppointments,
  listLiveDocuments,
  listNoteAddenda,
  listNoteDiagnoses,
  listPrescriptionIds,
  listSignedNotes,
  listVitals,
  type LiveDocumentRow,
} from './export.repository.js';
import { formatInstantWithZone } from '../../lib/clock.js';

/** The newest access-log entries an export carries (a very long log is cut, and says so). */
export const exportAccessLogLimit = 20_000;
/** The most questionnaire responses an export carries (far above any real patient's count). */
const intakeExportLimit = 5_000;
/** Room kept under the ZIP ceiling for record.json, README.txt, the prescription PDFs and headers. */
const generatedBytesAllowance = 256 * 1024 * 1024;

/** What the route sends: the file name in the requester's language and the ZIP bytes as they are made. */
export interface RecordExportDownload {
  fileName: string;
  chunks: AsyncIterable<Buffer>;
}

/** `GET /me/record/export`: the signed-in patient's whole record (audited; actor = the patient). */
export async function exportOwnRecord(
  ctx: ServiceContext,
  storage: FileStorage,
): Promise<RecordExportDownload> {
  const grant = await authorizeOwnExport(ctx.db, requireActor(ctx));
  return exportRecord(ctx, storage, grant, null);
}

/**
 * `POST /patients/:patientId/export`: an administrator exports one patient's record on request,
 * stating why. Audited with the reason; the patient is told in the app.
 */
export async function exportPatientRecord(
  ctx: ServiceContext,
  storage: FileStorage,
  patientId: string,
  body: AdminRecordExportRequest,
): Promise<RecordExportDownload> {
  const grant = await authorizeAdminExport(ctx.db, requireActor(ctx), patientId);
  return exportRecord(ctx, storage, grant, body.reason);
}

/** A stored file's absolute path, refusing any storage path that would leave the uploads folder. */
function storedFilePath(uploadsDir: string, storagePath: string): string | null {
  const root = path.resolve(uploadsDir);
  const absolute = path.resolve(root, storagePath);
  return absolute.startsWith(`${root}${path.sep}`) ? absolute : null;
}

/** The document's file when it is on disk with the size its row records; else null (left out, and said so). */
async function locateStoredFile(uploadsDir: string, row: LiveDocumentRow): Promise<string | null> {
  const absolute = storedFilePath(uploadsDir, row.storagePath);
  if (absolute === null) {
    return null;
  }
  const info = await stat(absolute).catch(() => null);
  return info !== null && info.isFile() && info.size === row.size ? absolute : null;
}

function formatInstant(at: Date, language: Language, timeZone: string): string {
  return formatInstantWithZone(at, language, timeZone, 'longDateTime');
}

/** `historia-clinica-<date>.zip` / `medical-record-<date>.zip`; an administrator's copy names the patient too. */
function exportFileName(language: Language, date: string, patientName: string | null): string {
  const prefix = t(language, 'fileName.recordExport');
  const slug =
    patientName === null
      ? ''
      : patientName
          .normalize('NFKD')
          .replace(/[\u0300-\u036f]/g, '')
          .replace(/[^A-Za-z0-9]+/g, '-')
          .replace(/^-+|-+$/g, '')
          .toLowerCase()
          .slice(0, 60);
  return slug === '' ? `${prefix}-${date}.zip` : `${prefix}-${slug}-${date}.zip`;
}

async function exportRecord(
  ctx: ServiceContext,
  storage: FileStorage,
  grant: ExportGrant,
  reason: string | null,
): Promise<RecordExportDownload> {
  const db = ctx.db;
  const now = ctx.now();
  const requester = await loadActorUser(ctx);
  const patientUser = await findUserById(db, grant.patient.id);
  if (patientUser === null) {
    throw appError('NOT_FOUND', 'No such patient.');
  }
  const language: Language = patientUser.language === 'en' ? 'en' : 'es';
  const requesterLanguage: Language = requester.language === 'en' ? 'en' : 'es';
  const patientId = patientUser.id;
  const patientZone = patientUser.timeZone;

  const settings = await loadIdentitySettings(db, ctx.config);
  const profile = await findPatientProfile(db, patientId);
  const allergies = await listAllergies(db, patientId, true);
  const conditions = await listConditions(db, patientId, true);
  const medications = await listMedications(db, patientId, true);
  const appointments = await listExportAppointments(db, patientId);
  const notes = await listSignedNotes(db, patientId);
  const noteIds = notes.map((note) => note.id);
  const diagnoses = await listNoteDiagnoses(db, noteIds);
  const addenda = await listNoteAddenda(db, noteIds);
  const vitals = await listVitals(db, patientId);
  const prescriptionRecords: PrescriptionRecord[] = [];
  for (const id of await listPrescriptionIds(db, patientId)) {
    const record = await findPrescriptionRecord(db, id);
    if (record !== null) {
      prescriptionRecords.push(record);
    }
  }
  const documentRows = await listLiveDocuments(db, patientId);
  const intakeRows = exportableIntake(await listResponsesOfPatient(db, patientId, intakeExportLimit));

  const allocate = createZipPathAllocator();
  const prescriptions: ExportedPrescription[] = prescriptionRecords.map((record) =>
    presentExportPrescription(
      record,
      allocate('prescriptions', `${record.prescription.verificationCode}.pdf`),
      appLink(ctx, `/verify/${record.prescription.verificationCode}`),
    ),
  );
  const files: { path: string; absolute: string; modifiedAt: Date }[] = [];
  const documents: ExportedDocument[] = [];
  let storedBytes = 0;
  for (const row of documentRows) {
    const absolute = await locateStoredFile(ctx.config.uploadsDir, row);
    let zipPath: string | null = null;
    if (absolute !== null) {
      zipPath =
        row.kind === 'visit_summary'
          ? allocate(
              'summaries',
              `${calendarDate(row.visitStartsAt ?? row.createdAt, patientUser.timeZone)}-${row.id.slice(0, 8)}.pdf`,
            )
          : allocate('documents', safeFileName(row.name, row.contentType));
      files.push({ path: zipPath, absolute, modifiedAt: row.createdAt });
      storedBytes += row.size;
    }
    documents.push(presentExportDocument(row, zipPath));
  }
  if (storedBytes + generatedBytesAllowance > zipMaxBytes) {
    throw appError(
      'UNPROCESSABLE',
      'This record is too large for one ZIP file (4 GiB). Ask the clinic for a copy in parts.',
    );
  }

  // The decision to export is audited before the bytes leave, so the copy carries its own event.
  await ctx.audit({
    action: 'record.exported',
    targetType: 'patient',
    targetId: patientId,
    details: {
      section: 'export',
      access: grant.by === 'patient' ? 'self' : 'administrative',
      by: grant.by,
      ...(reason === null ? {} : { reason }),
      counts: {
        prescriptions: prescriptions.length,
        notes: notes.length,
        intakeResponses: intakeRows.length,
        documents: documents.length,
        missingFiles: documents.filter((document) => document.path === null).length,
      },
    },
  });
  if (grant.by === 'administrator') {
    await notify(ctx, [
      {
        userId: patientId,
        kind: 'record.exported',
        data: { exportedAt: now.toISOString() },
        createdAt: now,
      },
    ]);
  }

  const accessLog = await listRecordAccessEvents(db, patientId, { page: 1, pageSize: exportAccessLogLimit });
  const record: RecordExport = recordExportSchema.parse({
    format: recordExportFormat,
    version: recordExportVersion,
    exportedAt: now.toISOString(),
    request: {
      by: grant.by,
      requester: { id: requester.id, name: requester.name },
      reason,
    },
    language,
    clinic: { name: settings.clinicName, timeZone: settings.clinicTimeZone },
    patient: {
      id: patientId,
      name: patientUser.name,
      dateOfBirth: patientUser.dateOfBirth,
      sex: profile?.sex ?? 'unknown',
      phone: patientUser.phone,
      email: patientUser.email,
      language: patientUser.language,
      timeZone: patientUser.timeZone,
      address: profile?.address ?? null,
      bloodType: profile?.bloodType ?? null,
    },
    identityDocument: {
      type: profile?.identityDocumentType ?? null,
      number: profile?.identityDocumentNumber ?? null,
    },
    emergencyContact: {
      name: profile?.emergencyContactName ?? null,
      phone: profile?.emergencyContactPhone ?? null,
      relation: profile?.emergencyContactRelation ?? null,
    },
    allergies: allergies.map(presentAllergy),
    conditions: conditions.map((row) => presentCondition(row, language)),
    medications: medications.map(presentMedication),
    appointments: appointments.map(presentExportAppointment),
    visitNotes: notes.map((note) => presentExportNote(note, diagnoses, addenda)),
    vitals: vitals.map(presentExportVitals),
    prescriptions,
    documents,
    accessLog: accessLog.rows.map(presentRecordAccessEntry),
    accessLogTruncated: accessLog.total > accessLog.rows.length,
  } satisfies RecordExport);

  const readme = renderReadme(language, {
    clinicName: settings.clinicName,
    patientName: patientUser.name,
    exportedAt: formatInstant(now, language, patientUser.timeZone),
    requestedBy: grant.by,
    prescriptions: prescriptions.length,
    summaries: documents.filter((document) => document.kind === 'visit_summary' && document.path !== null)
      .length,
    documents: documents.filter((document) => document.kind === 'upload' && document.path !== null).length,
    missingFiles: documents.filter((document) => document.path === null).length,
    questionnaires: intakeRows.length,
  });

  async function* entries(): AsyncGenerator<ZipEntry> {
    yield { name: 'README.txt', modifiedAt: now, bytes: Buffer.from(readme, 'utf8') };
    yield {
      name: 'record.json',
      modifiedAt: now,
      bytes: Buffer.from(`${JSON.stringify(record, null, 2)}\n`),
    };
    const logo = await readClinicLogo(ctx, storage).catch(() => null);
    const drawableLogo =
      logo !== null && (logo.contentType === 'image/png' || logo.contentType === 'image/jpeg')
        ? logo.bytes
        : null;
    // The readable summary beside the machine-readable file (JSON alone is nothing a patient can
    // read), in the patient's language.
    yield {
      name: recordSummaryFileName(language),
      modifiedAt: now,
      bytes: await renderRecordSummaryPdf(record, {
        logo: drawableLogo,
        intake: presentIntakeSummaries(intakeRows, language),
      }),
    };
    // The answers as FHIR resources, each beside the questionnaire version it answers.
    if (intakeRows.length > 0) {
      yield {
        name: intakeBundlePath,
        modifiedAt: now,
        bytes: Buffer.from(`${JSON.stringify(presentIntakeBundle(intakeRows, patientId, now), null, 2)}\n`),
      };
    }
    if (prescriptionRecords.length > 0) {
      for (const [index, prescriptionRecord] of prescriptionRecords.entries()) {
        // One PDF at a time, made when the ZIP reaches it.
        const bytes = await renderPrescriptionPdf(prescriptionRecord, {
          language,
          clinicName: settings.clinicName,
          timeZone: patientZone,
          logo: drawableLogo,
          specialties: await findDoctorSpecialtyNames(db, prescriptionRecord.doctor.id, language),
          verificationUrl: prescriptions[index]!.verificationUrl,
        });
        yield {
          name: prescriptions[index]!.path,
          modifiedAt: prescriptionRecord.prescription.issuedAt,
          bytes,
        };
      }
    }
    for (const file of files) {
      yield {
        name: file.path,
        modifiedAt: file.modifiedAt,
        stream: () => createReadStream(file.absolute, { highWaterMark: 256 * 1024 }),
      };
    }
  }

  return {
    fileName: exportFileName(
      requesterLanguage,
      calendarDate(now, requester.timeZone),
      grant.by === 'administrator' ? patientUser.name : null,
    ),
    chunks: writeZip(entries()),
  };
}
