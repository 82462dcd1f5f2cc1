import { z } from 'zod';
import { noteStatuses } from './notes.js';
import { prescriptionItemSchema, prescriptionStatuses } from './prescriptions.js';
import {
  allergySchema,
  chartDemographicsSchema,
  conditionSchema,
  medicationSchema,
  recordAccessEntrySchema,
} from './records.js';

/**
 * Contracts of the record export: `GET /me/record/export` (the patient) and
 * `POST /patients/:patientId/export` (an administrator, with a reason) answer a ZIP file holding
 * `record.json` (this schema), `README.txt`, `prescriptions/<code>.pdf`, `summaries/<date>-<id>.pdf`
 * and `documents/<name>`. The JSON is versioned: a reader checks `format` and `version` first;
 * later versions only add fields or raise the version.
 */

export const recordExportFormat = 'telemedicina.record-export';
export const recordExportVersion = 1;

/** Shortest and longest reason an administrator gives for exporting a patient's record. */
export const recordExportReasonMinLength = 10;
export const recordExportReasonMaxLength = 500;

/** `POST /patients/:patientId/export`: why the record leaves the clinic (audited, shown to the patient). */
export const adminRecordExportRequestSchema = z
  .object({
    reason: z
      .string({ message: 'validation.exportReasonTooShort' })
      .trim()
      .min(recordExportReasonMinLength, { message: 'validation.exportReasonTooShort' })
      .max(recordExportReasonMaxLength, { message: 'validation.reasonTooLong' }),
  })
  .strict();
export type AdminRecordExportRequest = z.infer<typeof adminRecordExportRequestSchema>;

const personSchema = z.object({ id: z.string(), name: z.string() });

/** A rich-text part of a note: the stored (sanitized) HTML and the same text without markup. */
export const exportedRichTextSchema = z.object({ html: z.string(), text: z.string() });
export type ExportedRichText = z.infer<typeof exportedRichTextSchema>;

export const exportedAppointmentSchema = z.object({
  id: z.string(),
  startsAt: z.string(),
  endsAt: z.string(),
  status: z.string(),
  doctor: personSchema,
  reason: z.string().nullable(),
  checkedInAt: z.string().nullable(),
  startedAt: z.string().nullable(),
  endedAt: z.string().nullable(),
  cancelledAt: z.string().nullable(),
  cancellationReason: z.string().nullable(),
});
export type ExportedAppointment = z.infer<typeof exportedAppointmentSchema>;

export const exportedVisitNoteSchema = z.object({
  id: z.string(),
  appointmentId: z.string(),
  visitStartsAt: z.string().nullable(),
  doctor: personSchema.extend({ licenseNumber: z.string().nullable() }),
  /** Only signed notes are exported; drafts are not part of the record yet. */
  status: z.enum(noteStatuses),
  createdAt: z.string(),
  signedAt: z.string().nullable(),
  signedBy: personSchema.nullable(),
  sections: z.object({
    subjective: exportedRichTextSchema,
    objective: exportedRichTextSchema,
    assessment: exportedRichTextSchema,
    plan: exportedRichTextSchema,
  }),
  diagnoses: z.array(
    z.object({ code: z.string(), nameEs: z.string(), nameEn: z.string(), primary: z.boolean() }),
  ),
  addenda: z.array(
    z.object({ id: z.string(), author: personSchema, signedAt: z.string(), body: exportedRichTextSchema }),
  ),
});
export type ExportedVisitNote = z.infer<typeof exportedVisitNoteSchema>;

export const exportedVitalsSchema = z.object({
  appointmentId: z.string(),
  reportedAt: z.string(),
  temperatureC: z.number().nullable(),
  heartRateBpm: z.number().nullable(),
  systolicMmHg: z.number().nullable(),
  diastolicMmHg: z.number().nullable(),
  respiratoryRate: z.number().nullable(),
  oxygenSaturation: z.number().nullable(),
  weightKg: z.number().nullable(),
  heightCm: z.number().nullable(),
  glucoseMgDl: z.number().nullable(),
});
export type ExportedVitals = z.infer<typeof exportedVitalsSchema>;

export const exportedPrescriptionSchema = z.object({
  id: z.string(),
  verificationCode: z.string(),
  verificationUrl: z.string(),
  status: z.enum(prescriptionStatuses),
  issuedAt: z.string(),
  cancelledAt: z.string().nullable(),
  cancellationReason: z.string().nullable(),
  doctor: personSchema.extend({ licenseNumber: z.string().nullable() }),
  appointmentId: z.string().nullable(),
  notes: z.string().nullable(),
  items: z.array(prescriptionItemSchema),
  /** Where the printable PDF is inside the ZIP file. */
  path: z.string(),
});
export type ExportedPrescription = z.infer<typeof exportedPrescriptionSchema>;

export const exportedDocumentSchema = z.object({
  id: z.string(),
  /** `upload` (a file added to the chart), `visit_summary` (the PDF made when a note is signed) or `consent` (a signed consent). */
  kind: z.enum(['upload', 'visit_summary', 'consent']),
  category: z.string(),
  /** The label shown in the chart (a sanitized name, never a path). */
  name: z.string(),
  contentType: z.string(),
  size: z.number().int(),
  sha256: z.string(),
  createdAt: z.string(),
  appointmentId: z.string().nullable(),
  uploadedBy: personSchema.nullable(),
  /**
   * Where the file is inside the ZIP file (`documents/…` or `summaries/…`); null when its bytes
   * could not be read from the clinic's storage (README.txt says so).
   */
  path: z.string().nullable(),
});
export type ExportedDocument = z.infer<typeof exportedDocumentSchema>;

/** The `record.json` of an export. */
export const recordExportSchema = z.object({
  format: z.literal(recordExportFormat),
  version: z.literal(recordExportVersion),
  exportedAt: z.string(),
  /** Who asked: the patient, or an administrator with the reason they gave. */
  request: z.object({
    by: z.enum(['patient', 'administrator']),
    requester: personSchema,
    reason: z.string().nullable(),
  }),
  /** The language of README.txt, the PDFs and the diagnosis names in `conditions`. */
  language: z.enum(['es', 'en']),
  clinic: z.object({ name: z.string(), timeZone: z.string() }),
  patient: chartDemographicsSchema.extend({
    id: z.string(),
    timeZone: z.string(),
    bloodType: z.string().nullable(),
  }),
  identityDocument: z.object({ type: z.string().nullable(), number: z.string().nullable() }),
  emergencyContact: z.object({
    name: z.string().nullable(),
    phone: z.string().nullable(),
    relation: z.string().nullable(),
  }),
  /** Current and ended entries; ended ones carry `removedAt` and `removedBy`. */
  allergies: z.array(allergySchema),
  conditions: z.array(conditionSchema),
  medications: z.array(medicationSchema),
  appointments: z.array(exportedAppointmentSchema),
  visitNotes: z.array(exportedVisitNoteSchema),
  vitals: z.array(exportedVitalsSchema),
  prescriptions: z.array(exportedPrescriptionSchema),
  documents: z.array(exportedDocumentSchema),
  /** Who viewed or changed the record (the patient's own views left out), newest first. */
  accessLog: z.array(recordAccessEntrySchema),
  /** True when the access log was cut to its newest entries. */
  accessLogTruncated: z.boolean(),
});
export type RecordExport = z.infer<typeof recordExportSchema>;
