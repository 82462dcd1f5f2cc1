import type { ChartNoteSummary, VisitNote, Vitals } from '@telemedicina/shared/notes';
import type {
  ChartNoteRow,
  NoteAddendumRow,
  NoteDiagnosisRow,
  NotePeople,
  NoteRow,
  VitalsRow,
} from './notes.repository.js';

/** Everything one note's answer shows, loaded by the service. */
export interface NoteRecord {
  note: NoteRow;
  people: NotePeople;
  diagnoses: NoteDiagnosisRow[];
  addenda: NoteAddendumRow[];
  summaryDocumentId: string | null;
}

export function presentNote(
  record: NoteRecord,
  permissions: { canEdit: boolean; canAmend: boolean },
): VisitNote {
  const { note, people } = record;
  return {
    id: note.id,
    appointmentId: note.appointmentId,
    patient: { id: people.patient.id, name: people.patient.name },
    doctor: { id: people.doctor.id, name: people.doctor.name, licenseNumber: people.doctor.licenseNumber },
    status: note.status,
    version: note.version,
    sections: {
      subjective: note.subjectiveHtml,
      objective: note.objectiveHtml,
      assessment: note.assessmentHtml,
      plan: note.planHtml,
    },
    diagnoses: record.diagnoses.map((diagnosis) => ({
      code: diagnosis.code,
      chapter: diagnosis.chapter,
      nameEs: diagnosis.nameEs,
      nameEn: diagnosis.nameEn,
      primary: diagnosis.isPrimary,
    })),
    addenda: record.addenda.map((addendum) => ({
      id: addendum.id,
      author: { id: addendum.authorUserId, name: addendum.authorName },
      body: addendum.bodyHtml,
      signedAt: addendum.signedAt.toISOString(),
    })),
    createdAt: note.createdAt.toISOString(),
    updatedAt: note.updatedAt.toISOString(),
    signedAt: note.signedAt?.toISOString() ?? null,
    summaryDocumentId: record.summaryDocumentId,
    canEdit: permissions.canEdit,
    canAmend: permissions.canAmend,
  };
}

export function presentVitals(row: VitalsRow): Vitals {
  return {
    temperatureC: row.temperatureC,
    heartRateBpm: row.heartRateBpm,
    systolicMmHg: row.systolicMmHg,
    diastolicMmHg: row.diastolicMmHg,
    respiratoryRate: row.respiratoryRate,
    oxygenSaturation: row.oxygenSaturation,
    weightKg: row.weightKg,
    heightCm: row.heightCm,
    glucoseMgDl: row.glucoseMgDl,
    reportedAt: row.reportedAt.toISOString(),
  };
}

export function presentChartNote(row: ChartNoteRow): ChartNoteSummary {
  return {
    id: row.id,
    appointmentId: row.appointmentId,
    visitStartsAt: row.visitStartsAt.toISOString(),
    doctor: { id: row.doctorId, name: row.doctorName },
    status: row.status,
    signedAt: row.signedAt?.toISOString() ?? null,
    diagnoses: row.diagnoses,
    addendaCount: Number(row.addendaCount),
  };
}
