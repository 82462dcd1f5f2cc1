import type {
  ExportedAppointment,
  ExportedDocument,
  ExportedPrescription,
  ExportedVisitNote,
  ExportedVitals,
} from '@telemedicina/shared/export';
import type { PrescriptionRecord } from '../prescriptions/prescriptions.repository.js';
import type {
  ExportAppointmentRow,
  LiveDocumentRow,
  SignedNoteRow,
  listNoteAddenda,
  listNoteDiagnoses,
  listVitals,
} from './export.repository.js';
import { htmlToText } from './html-text.js';

const iso = (value: Date | null): string | null => (value === null ? null : value.toISOString());

/** Extensions for the sniffed content types uploads and summaries can have. */
const extensionByType: Record<string, string> = {
  'application/pdf': 'pdf',
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/bmp': 'bmp',
  'image/tiff': 'tiff',
  'image/heic': 'heic',
  'text/plain': 'txt',
  'application/dicom': 'dcm',
};

/**
 * A file name for a label someone typed: Unicode kept (NFC), but no path separators, control or
 * reserved characters (Windows' too), no leading dots, at most 100 characters, and the extension
 * of the sniffed content type when the label lacks it. Never a path from a user.
 */
export function safeFileName(label: string, contentType: string): string {
  const extension = extensionByType[contentType] ?? 'bin';
  let base = label
    .normalize('NFC')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, '')
    .replace(/[/\\:*?"<>|]/g, '_')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[.\s]+/, '')
    .replace(/[.\s]+$/, '');
  const hasExtension =
    base.toLowerCase().endsWith(`.${extension}`) ||
    (extension === 'jpg' && /\.jpe?g$/i.test(base)) ||
    (extension === 'tiff' && /\.tif$/i.test(base));
  if (hasExtension) {
    base = base.slice(0, base.lastIndexOf('.'));
  }
  base = Array.from(base).slice(0, 100).join('').trim();
  if (/^(con|prn|aux|nul|com\d|lpt\d)$/i.test(base) || base === '') {
    base = base === '' ? 'document' : `${base}_`;
  }
  return `${base}.${extension}`;
}

/**
 * Hands out paths inside the ZIP file, unique without regard to case (Windows and macOS
 * folders): a second "informe.pdf" becomes "informe (2).pdf".
 */
export function createZipPathAllocator(): (folder: string, fileName: string) => string {
  const taken = new Set<string>();
  return (folder, fileName) => {
    const dot = fileName.lastIndexOf('.');
    const stem = dot > 0 ? fileName.slice(0, dot) : fileName;
    const extension = dot > 0 ? fileName.slice(dot) : '';
    for (let counter = 1; ; counter += 1) {
      const candidate = `${folder}/${counter === 1 ? stem : `${stem} (${counter})`}${extension}`;
      if (!taken.has(candidate.toLowerCase())) {
        taken.add(candidate.toLowerCase());
        return candidate;
      }
    }
  };
}

/** `YYYY-MM-DD` of an instant in a time zone. */
export function calendarDate(at: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(at);
}

export function presentExportAppointment(row: ExportAppointmentRow): ExportedAppointment {
  return {
    id: row.id,
    startsAt: row.startsAt.toISOString(),
    endsAt: row.endsAt.toISOString(),
    status: row.status,
    doctor: { id: row.doctorId, name: row.doctorName },
    reason: row.reason,
    checkedInAt: iso(row.checkedInAt),
    startedAt: iso(row.startedAt),
    endedAt: iso(row.endedAt),
    cancelledAt: iso(row.cancelledAt),
    cancellationReason: row.cancellationReason,
  };
}

export function presentExportNote(
  row: SignedNoteRow,
  diagnoses: Awaited<ReturnType<typeof listNoteDiagnoses>>,
  addenda: Awaited<ReturnType<typeof listNoteAddenda>>,
): ExportedVisitNote {
  return {
    id: row.id,
    appointmentId: row.appointmentId,
    visitStartsAt: iso(row.visitStartsAt),
    doctor: { id: row.doctorId, name: row.doctorName ?? '', licenseNumber: row.licenseNumber },
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    signedAt: iso(row.signedAt),
    signedBy:
      row.signedById === null || row.signedByName === null
        ? null
        : { id: row.signedById, name: row.signedByName },
    sections: {
      subjective: htmlToText(row.subjectiveHtml),
      objective: htmlToText(row.objectiveHtml),
      assessment: htmlToText(row.assessmentHtml),
      plan: htmlToText(row.planHtml),
    },
    diagnoses: diagnoses
      .filter((diagnosis) => diagnosis.noteId === row.id)
      .map((diagnosis) => ({
        code: diagnosis.code,
        nameEs: diagnosis.nameEs,
        nameEn: diagnosis.nameEn,
        primary: diagnosis.isPrimary,
      })),
    addenda: addenda
      .filter((addendum) => addendum.noteId === row.id)
      .map((addendum) => ({
        id: addendum.id,
        author: { id: addendum.authorId, name: addendum.authorName },
        signedAt: addendum.signedAt.toISOString(),
        body: htmlToText(addendum.bodyHtml),
      })),
  };
}

export function presentExportVitals(row: Awaited<ReturnType<typeof listVitals>>[number]): ExportedVitals {
  return {
    appointmentId: row.appointmentId,
    reportedAt: row.reportedAt.toISOString(),
    temperatureC: row.temperatureC,
    heartRateBpm: row.heartRateBpm,
    systolicMmHg: row.systolicMmHg,
    diastolicMmHg: row.diastolicMmHg,
    respiratoryRate: row.respiratoryRate,
    oxygenSaturation: row.oxygenSaturation,
    weightKg: row.weightKg,
    heightCm: row.heightCm,
    glucoseMgDl: row.glucoseMgDl,
  };
}

export function presentExportPrescription(
  record: PrescriptionRecord,
  path: string,
  verificationUrl: string,
): ExportedPrescription {
  const { prescription } = record;
  return {
    id: prescription.id,
    verificationCode: prescription.verificationCode,
    verificationUrl,
    status: prescription.status,
    issuedAt: prescription.issuedAt.toISOString(),
    cancelledAt: iso(prescription.cancelledAt),
    cancellationReason: prescription.cancellationReason,
    doctor: { id: record.doctor.id, name: record.doctor.name, licenseNumber: record.doctor.licenseNumber },
    appointmentId: prescription.appointmentId,
    notes: prescription.notes,
    items: record.items.map((item) => ({
      position: item.position,
      medication: item.medication,
      dose: item.dose,
      route: item.route,
      frequency: item.frequency,
      duration: item.duration,
      quantity: item.quantity,
      instructions: item.instructions,
    })),
    path,
  };
}

export function presentExportDocument(row: LiveDocumentRow, path: string | null): ExportedDocument {
  return {
    id: row.id,
    kind: row.kind,
    category: row.category,
    name: row.name,
    contentType: row.contentType,
    size: row.size,
    sha256: row.sha256,
    createdAt: row.createdAt.toISOString(),
    appointmentId: row.appointmentId,
    uploadedBy:
      row.uploadedById === null || row.uploadedByName === null
        ? null
        : { id: row.uploadedById, name: row.uploadedByName },
    path,
  };
}
