import type {
  allergySeverities,
  AppointmentStatus,
  DocumentCategory,
  Language,
  PatientSex,
  RecordExport,
} from '@telemedicina/shared';
import { formatCalendarDate, formatInstant, formatInstantWithZone, formatZoneName } from '../../lib/clock.js';
import {
  createPdfDocument,
  drawClinicHeading,
  drawRule,
  pdfColors,
  pdfMargin,
} from '../prescriptions/prescription-pdf.js';

/**
 * The readable summary of a record export (issue 20: "the record export is JSON only: nothing a
 * patient can read"). It sits beside record.json in the ZIP, in the patient's language (Spanish
 * addressing the reader as usted), every time in the patient's account zone through the server's
 * one clock (`lib/clock`), the zone named in words once.
 */

const texts = {
  es: {
    title: 'Resumen de su historia clínica',
    intro: (exportedAt: string) =>
      `Copia preparada el ${exportedAt}. Este documento resume su historia clínica para que usted pueda leerla; la copia completa, que otros programas y centros sanitarios pueden leer, está en el archivo record.json que lo acompaña.`,
    zone: (zone: string) => `Todas las horas de este documento están en ${zone}.`,
    personal: 'Datos personales',
    name: 'Nombre',
    dateOfBirth: 'Fecha de nacimiento',
    sex: 'Sexo',
    phone: 'Teléfono',
    email: 'Correo electrónico',
    address: 'Dirección',
    bloodType: 'Grupo sanguíneo',
    allergies: 'Alergias',
    conditions: 'Enfermedades',
    medications: 'Medicación',
    visits: 'Consultas',
    prescriptions: 'Recetas',
    documents: 'Documentos',
    none: 'No consta ninguna.',
    noneDocuments: 'No consta ninguno.',
    notGiven: 'No consta',
    reaction: 'reacción',
    ended: (date: string) => `dada por terminada el ${date}`,
    since: (date: string) => `desde el ${date}`,
    until: (date: string) => `hasta el ${date}`,
    reason: 'Motivo',
    diagnoses: 'Diagnósticos',
    withDoctor: (name: string) => `con ${name}`,
    code: 'código de verificación',
    cancelled: 'ANULADA',
    summaryKind: 'Resumen de consulta',
    notInZip: 'no se pudo incluir el archivo',
    footer:
      'Si algún dato no es correcto, comuníquelo a la clínica. Las notas que el médico aún no ha firmado y los documentos retirados no forman parte de esta copia.',
    sexes: { female: 'Mujer', male: 'Hombre', other: 'Otro', unknown: 'No consta' },
    severities: { mild: 'leve', moderate: 'moderada', severe: 'grave', unknown: 'gravedad no indicada' },
    conditionStatuses: { active: 'activa', resolved: 'resuelta' },
    statuses: {
      requested: 'solicitada',
      confirmed: 'confirmada',
      checked_in: 'en sala de espera',
      in_progress: 'en curso',
      completed: 'realizada',
      cancelled: 'cancelada',
      no_show: 'no acudió',
    },
    categories: {
      lab: 'Análisis',
      imaging: 'Imagen',
      referral: 'Derivación',
      report: 'Informe',
      other: 'Otro',
    },
  },
  en: {
    title: 'Summary of your medical record',
    intro: (exportedAt: string) =>
      `Copy prepared on ${exportedAt}. This document summarises your medical record so that you can read it; the complete copy, which other programs and healthcare providers can read, is in the record.json file beside it.`,
    zone: (zone: string) => `All times in this document are in ${zone}.`,
    personal: 'Personal details',
    name: 'Name',
    dateOfBirth: 'Date of birth',
    sex: 'Sex',
    phone: 'Phone',
    email: 'Email',
    address: 'Address',
    bloodType: 'Blood type',
    allergies: 'Allergies',
    conditions: 'Conditions',
    medications: 'Medication',
    visits: 'Visits',
    prescriptions: 'Prescriptions',
    documents: 'Documents',
    none: 'None recorded.',
    noneDocuments: 'None recorded.',
    notGiven: 'Not recorded',
    reaction: 'reaction',
    ended: (date: string) => `ended on ${date}`,
    since: (date: string) => `since ${date}`,
    until: (date: string) => `until ${date}`,
    reason: 'Reason',
    diagnoses: 'Diagnoses',
    withDoctor: (name: string) => `with ${name}`,
    code: 'verification code',
    cancelled: 'CANCELLED',
    summaryKind: 'Visit summary',
    notInZip: 'the file could not be included',
    footer:
      'If anything here is not right, please tell the clinic. Notes the doctor has not signed yet and removed documents are not part of this copy.',
    sexes: { female: 'Female', male: 'Male', other: 'Other', unknown: 'Not recorded' },
    severities: { mild: 'mild', moderate: 'moderate', severe: 'severe', unknown: 'severity not given' },
    conditionStatuses: { active: 'active', resolved: 'resolved' },
    statuses: {
      requested: 'requested',
      confirmed: 'confirmed',
      checked_in: 'in the waiting room',
      in_progress: 'in progress',
      completed: 'completed',
      cancelled: 'cancelled',
      no_show: 'missed',
    },
    categories: {
      lab: 'Lab results',
      imaging: 'Imaging',
      referral: 'Referral',
      report: 'Report',
      other: 'Other',
    },
  },
} as const satisfies Record<
  Language,
  {
    sexes: Record<PatientSex, string>;
    severities: Record<(typeof allergySeverities)[number], string>;
    statuses: Record<AppointmentStatus, string>;
    categories: Record<DocumentCategory, string>;
  } & Record<string, unknown>
>;

/** The summary's name inside the ZIP, in the patient's language. */
export function recordSummaryFileName(language: Language): string {
  return language === 'en' ? 'medical-record-summary.pdf' : 'resumen-historia-clinica.pdf';
}

const margin = pdfMargin;
const { ink, muted, accent } = pdfColors;

/**
 * Renders the summary from the export's own record (so the two never disagree): personal data,
 * allergies, conditions, medication (ended entries marked), visits with their reasons and
 * diagnoses, prescriptions with their medicines, and the list of documents.
 */
export function renderRecordSummaryPdf(
  record: RecordExport,
  options: { logo: Buffer | null },
): Promise<Buffer> {
  const language = record.language;
  const t = texts[language];
  const zone = record.patient.timeZone;
  const dateTime = (iso: string) => formatInstant(new Date(iso), language, zone, 'longDateTime');
  const date = (iso: string) => formatInstant(new Date(iso), language, zone, 'longDate');
  const day = (calendarDay: string) => formatCalendarDate(calendarDay, language);
  const orNotGiven = (value: string | null) => (value === null || value.trim() === '' ? t.notGiven : value);

  const { document, done } = createPdfDocument({
    Title: t.title,
    Author: record.clinic.name,
    Subject: `${t.title} — ${record.patient.name}`,
  });
  const width = document.page.width - margin * 2;
  const ensureRoom = (height: number) => {
    if (document.y > document.page.height - margin - height) {
      document.addPage();
      document.x = margin;
    }
  };
  const paragraph = (text: string, options: { color?: string; size?: number; italic?: boolean } = {}) => {
    ensureRoom(28);
    document
      .fillColor(options.color ?? ink)
      .font(options.italic === true ? 'Helvetica-Oblique' : 'Helvetica')
      .fontSize(options.size ?? 10)
      .text(text, margin, document.y, { width });
    document.moveDown(0.25);
  };
  const sectionTitle = (text: string) => {
    document.moveDown(0.5);
    ensureRoom(60);
    document.fillColor(accent).font('Helvetica-Bold').fontSize(12.5).text(text, margin, document.y, { width });
    document.moveDown(0.3);
  };
  const item = (headline: string, details: string[] = []) => {
    ensureRoom(36);
    const y = document.y;
    document.fillColor(ink).font('Helvetica').fontSize(10.5).text('•', margin, y, { width: 14 });
    document.font('Helvetica-Bold').text(headline, margin + 14, y, { width: width - 14 });
    for (const detail of details) {
      document
        .fillColor(muted)
        .font('Helvetica')
        .fontSize(9.5)
        .text(detail, margin + 14, document.y, { width: width - 14 });
    }
    document.x = margin;
    document.moveDown(0.3);
  };
  const fact = (label: string, value: string) => {
    ensureRoom(20);
    document
      .fillColor(muted)
      .font('Helvetica')
      .fontSize(10)
      .text(`${label}: `, margin, document.y, { continued: true, width })
      .fillColor(ink)
      .text(value);
  };
  const empty = (text: string = t.none) => paragraph(text, { color: muted, italic: true });

  drawClinicHeading(document, { logo: options.logo, clinicName: record.clinic.name, title: t.title });
  document.moveDown(0.6);
  paragraph(t.intro(formatInstantWithZone(new Date(record.exportedAt), language, zone, 'longDateTime')));
  paragraph(t.zone(formatZoneName(zone, language)), { color: muted });

  sectionTitle(t.personal);
  fact(t.name, record.patient.name);
  fact(t.dateOfBirth, record.patient.dateOfBirth === null ? t.notGiven : day(record.patient.dateOfBirth));
  fact(t.sex, t.sexes[record.patient.sex]);
  fact(t.phone, orNotGiven(record.patient.phone));
  fact(t.email, record.patient.email);
  fact(t.address, orNotGiven(record.patient.address));
  fact(t.bloodType, orNotGiven(record.patient.bloodType));

  sectionTitle(t.allergies);
  if (record.allergies.length === 0) {
    empty();
  }
  for (const allergy of record.allergies) {
    item(allergy.substance, [
      [
        t.severities[allergy.severity],
        allergy.reaction === null ? null : `${t.reaction}: ${allergy.reaction}`,
        allergy.removedAt === null ? null : t.ended(date(allergy.removedAt)),
      ]
        .filter((part) => part !== null)
        .join(' · '),
    ]);
  }

  sectionTitle(t.conditions);
  if (record.conditions.length === 0) {
    empty();
  }
  for (const condition of record.conditions) {
    const coded =
      condition.diagnosisCode === null
        ? null
        : `${condition.diagnosisCode}${condition.diagnosisName === null ? '' : ` ${condition.diagnosisName}`}`;
    item(condition.description, [
      [
        t.conditionStatuses[condition.status],
        coded,
        condition.onsetDate === null ? null : t.since(day(condition.onsetDate)),
        condition.removedAt === null ? null : t.ended(date(condition.removedAt)),
      ]
        .filter((part) => part !== null)
        .join(' · '),
    ]);
  }

  sectionTitle(t.medications);
  if (record.medications.length === 0) {
    empty();
  }
  for (const medication of record.medications) {
    item(medication.name, [
      [
        medication.dose,
        medication.frequency,
        medication.startedOn === null ? null : t.since(day(medication.startedOn)),
        medication.stoppedOn === null ? null : t.until(day(medication.stoppedOn)),
        medication.removedAt === null ? null : t.ended(date(medication.removedAt)),
      ]
        .filter((part) => part !== null && part !== '')
        .join(' · '),
    ]);
  }

  sectionTitle(t.visits);
  if (record.appointments.length === 0) {
    empty();
  }
  const visits = [...record.appointments].sort((a, b) => b.startsAt.localeCompare(a.startsAt));
  for (const visit of visits) {
    const diagnoses = record.visitNotes
      .filter((note) => note.appointmentId === visit.id)
      .flatMap((note) => note.diagnoses)
      .map((diagnosis) => `${diagnosis.code} ${language === 'en' ? diagnosis.nameEn : diagnosis.nameEs}`);
    item(`${dateTime(visit.startsAt)} · ${t.withDoctor(visit.doctor.name)}`, [
      t.statuses[visit.status as AppointmentStatus] ?? visit.status,
      ...(visit.reason === null || visit.reason.trim() === '' ? [] : [`${t.reason}: ${visit.reason}`]),
      ...(diagnoses.length === 0 ? [] : [`${t.diagnoses}: ${diagnoses.join('; ')}`]),
    ]);
  }

  sectionTitle(t.prescriptions);
  if (record.prescriptions.length === 0) {
    empty();
  }
  for (const prescription of record.prescriptions) {
    const headline = `${dateTime(prescription.issuedAt)} · ${prescription.doctor.name}${
      prescription.status === 'cancelled' ? ` · ${t.cancelled}` : ''
    }`;
    item(headline, [
      ...prescription.items.map((line) =>
        [line.medication, line.dose, line.route, line.frequency, line.duration]
          .filter((part) => part !== '')
          .join(' · '),
      ),
      `${t.code}: ${prescription.verificationCode}`,
    ]);
  }

  sectionTitle(t.documents);
  if (record.documents.length === 0) {
    empty(t.noneDocuments);
  }
  for (const entry of record.documents) {
    const kind = entry.kind === 'visit_summary' ? t.summaryKind : t.categories[entry.category as DocumentCategory];
    item(entry.name, [
      [kind ?? entry.category, date(entry.createdAt), entry.path === null ? t.notInZip : null]
        .filter((part) => part !== null)
        .join(' · '),
    ]);
  }

  document.moveDown(0.8);
  ensureRoom(50);
  drawRule(document, width);
  document.moveDown(0.5);
  paragraph(t.footer, { color: muted, size: 9 });

  document.end();
  return done;
}
