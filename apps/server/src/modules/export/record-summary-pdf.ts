import { appointmentStatuses } from '@telemedicina/shared/common';
import { documentCategories } from '@telemedicina/shared/documents';
import type { RecordExport } from '@telemedicina/shared/export';
import { instrumentMaxScore, type ExportedIntakeResponse } from './export-intake.js';
import type { Language } from '@telemedicina/shared/i18n';
import { formatCalendarDate, formatInstant, formatInstantWithZone, formatZoneName } from '../../lib/clock.js';
import {
  createPdfDocument,
  drawClinicHeading,
  drawRule,
  pdfColors,
  pdfMargin,
} from '../prescriptions/prescription-pdf.js';
import { t } from '../../text/catalogue.js';

/**
 * The readable summary of a record export, because JSON alone is nothing a patient can read. It sits beside record.json in the ZIP, in the patient's language (Spanish
 * addressing the reader as usted), every time in the patient's account zone through the server's
 * one clock (`lib/clock`), the zone named in words once.
 */

/** The summary's name inside the ZIP, in the patient's language. */
export function recordSummaryFileName(language: Language): string {
  return `${t(language, 'fileName.recordSummary')}.pdf`;
}

const margin = pdfMargin;
const { ink, muted, accent } = pdfColors;

/**
 * Renders the summary from the export's own record (so the two never disagree): personal data,
 * allergies, conditions, medication (ended entries marked), visits with their reasons and
 * diagnoses, the questionnaires answered before visits (score, band, answers), prescriptions with their medicines, and the list of documents.
 */
export function renderRecordSummaryPdf(
  record: RecordExport,
  options: { logo: Buffer | null; intake?: readonly ExportedIntakeResponse[] },
): Promise<Buffer> {
  const language = record.language;
  const zone = record.patient.timeZone;
  const dateTime = (iso: string) => formatInstant(new Date(iso), language, zone, 'longDateTime');
  const date = (iso: string) => formatInstant(new Date(iso), language, zone, 'longDate');
  const day = (calendarDay: string) => formatCalendarDate(calendarDay, language);
  const orNotGiven = (value: string | null) =>
    value === null || value.trim() === '' ? t(language, 'pdf.common.notGiven') : value;

  const { document, done } = createPdfDocument({
    Title: t(language, 'pdf.record.title'),
    Author: record.clinic.name,
    Subject: `${t(language, 'pdf.record.title')} — ${record.patient.name}`,
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
    document
      .fillColor(accent)
      .font('Helvetica-Bold')
      .fontSize(12.5)
      .text(text, margin, document.y, { width });
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
  const empty = (text: string = t(language, 'pdf.record.none')) =>
    paragraph(text, { color: muted, italic: true });

  drawClinicHeading(document, {
    logo: options.logo,
    clinicName: record.clinic.name,
    title: t(language, 'pdf.record.title'),
  });
  document.moveDown(0.6);
  paragraph(
    t(language, 'pdf.record.intro', {
      exportedAt: formatInstantWithZone(new Date(record.exportedAt), language, zone, 'longDateTime'),
    }),
  );
  paragraph(t(language, 'pdf.record.zone', { zone: formatZoneName(zone, language) }), { color: muted });

  sectionTitle(t(language, 'pdf.record.personal'));
  fact(t(language, 'pdf.record.name'), record.patient.name);
  fact(
    t(language, 'pdf.common.dateOfBirth'),
    record.patient.dateOfBirth === null
      ? t(language, 'pdf.common.notGiven')
      : day(record.patient.dateOfBirth),
  );
  fact(t(language, 'pdf.record.sex'), t(language, `pdf.record.sexes.${record.patient.sex}`));
  fact(t(language, 'pdf.record.phone'), orNotGiven(record.patient.phone));
  fact(t(language, 'pdf.record.email'), record.patient.email);
  fact(t(language, 'pdf.record.address'), orNotGiven(record.patient.address));
  fact(t(language, 'pdf.record.bloodType'), orNotGiven(record.patient.bloodType));

  sectionTitle(t(language, 'pdf.record.allergies'));
  if (record.allergies.length === 0) {
    empty();
  }
  for (const allergy of record.allergies) {
    item(allergy.substance, [
      [
        t(language, `pdf.record.severities.${allergy.severity}`),
        allergy.reaction === null ? null : `${t(language, 'pdf.record.reaction')}: ${allergy.reaction}`,
        allergy.removedAt === null
          ? null
          : t(language, 'pdf.record.ended', { date: date(allergy.removedAt) }),
      ]
        .filter((part) => part !== null)
        .join(' · '),
    ]);
  }

  sectionTitle(t(language, 'pdf.record.conditions'));
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
        t(language, `pdf.record.conditionStatuses.${condition.status}`),
        coded,
        condition.onsetDate === null
          ? null
          : t(language, 'pdf.record.since', { date: day(condition.onsetDate) }),
        condition.removedAt === null
          ? null
          : t(language, 'pdf.record.ended', { date: date(condition.removedAt) }),
      ]
        .filter((part) => part !== null)
        .join(' · '),
    ]);
  }

  sectionTitle(t(language, 'pdf.record.medications'));
  if (record.medications.length === 0) {
    empty();
  }
  for (const medication of record.medications) {
    item(medication.name, [
      [
        medication.dose,
        medication.frequency,
        medication.startedOn === null
          ? null
          : t(language, 'pdf.record.since', { date: day(medication.startedOn) }),
        medication.stoppedOn === null
          ? null
          : t(language, 'pdf.record.until', { date: day(medication.stoppedOn) }),
        medication.removedAt === null
          ? null
          : t(language, 'pdf.record.ended', { date: date(medication.removedAt) }),
      ]
        .filter((part) => part !== null && part !== '')
        .join(' · '),
    ]);
  }

  sectionTitle(t(language, 'pdf.record.visits'));
  if (record.appointments.length === 0) {
    empty();
  }
  const visits = [...record.appointments].sort((a, b) => b.startsAt.localeCompare(a.startsAt));
  for (const visit of visits) {
    const diagnoses = record.visitNotes
      .filter((note) => note.appointmentId === visit.id)
      .flatMap((note) => note.diagnoses)
      .map((diagnosis) => `${diagnosis.code} ${language === 'en' ? diagnosis.nameEn : diagnosis.nameEs}`);
    item(
      `${dateTime(visit.startsAt)} · ${t(language, 'pdf.record.withDoctor', { name: visit.doctor.name })}`,
      [
        isOneOf(appointmentStatuses, visit.status)
          ? t(language, `pdf.record.statuses.${visit.status}`)
          : visit.status,
        ...(visit.reason === null || visit.reason.trim() === ''
          ? []
          : [`${t(language, 'pdf.record.reason')}: ${visit.reason}`]),
        ...(diagnoses.length === 0
          ? []
          : [`${t(language, 'pdf.record.diagnoses')}: ${diagnoses.join('; ')}`]),
      ],
    );
  }

  const intake = options.intake ?? [];
  sectionTitle(t(language, 'pdf.record.intake'));
  if (intake.length === 0) {
    empty(t(language, 'pdf.record.intakeNone'));
  } else {
    paragraph(t(language, 'pdf.record.intakeFile'), { color: muted, size: 9 });
  }
  for (const form of intake) {
    const when =
      form.status === 'completed'
        ? t(language, 'pdf.record.intakeSent', { date: dateTime(form.at) })
        : t(language, 'pdf.record.intakeOpen', { date: dateTime(form.at) });
    item(`${form.title} · ${when}`, [
      ...(form.score === null
        ? []
        : [
            t(language, 'pdf.record.intakeScore', {
              score: form.score.score,
              max: instrumentMaxScore[form.score.instrument],
              band: t(language, `pdf.record.intakeSeverities.${form.score.severity}`),
            }),
            ...(form.score.selfHarmFlag ? [t(language, 'pdf.record.intakeSelfHarm')] : []),
          ]),
      ...form.answers.map((answer) => `${answer.question}: ${answer.answer}`),
    ]);
  }

  sectionTitle(t(language, 'pdf.record.prescriptions'));
  if (record.prescriptions.length === 0) {
    empty();
  }
  for (const prescription of record.prescriptions) {
    const headline = `${dateTime(prescription.issuedAt)} · ${prescription.doctor.name}${
      prescription.status === 'cancelled' ? ` · ${t(language, 'pdf.record.cancelled')}` : ''
    }`;
    item(headline, [
      ...prescription.items.map((line) =>
        [line.medication, line.dose, line.route, line.frequency, line.duration]
          .filter((part) => part !== '')
          .join(' · '),
      ),
      `${t(language, 'pdf.record.code')}: ${prescription.verificationCode}`,
    ]);
  }

  sectionTitle(t(language, 'pdf.record.documents'));
  if (record.documents.length === 0) {
    empty(t(language, 'pdf.record.noneDocuments'));
  }
  for (const entry of record.documents) {
    const kind =
      entry.kind === 'visit_summary'
        ? t(language, 'pdf.record.summaryKind')
        : isOneOf(documentCategories, entry.category)
          ? t(language, `pdf.record.categories.${entry.category}`)
          : null;
    item(entry.name, [
      [
        kind ?? entry.category,
        date(entry.createdAt),
        entry.path === null ? t(language, 'pdf.record.notInZip') : null,
      ]
        .filter((part) => part !== null)
        .join(' · '),
    ]);
  }

  document.moveDown(0.8);
  ensureRoom(50);
  drawRule(document, width);
  document.moveDown(0.5);
  paragraph(t(language, 'pdf.record.footer'), { color: muted, size: 9 });

  document.end();
  return done;
}

/** Whether a value read from the export is one of a list's members (an unknown one is shown as it is). */
function isOneOf<T extends string>(list: readonly T[], value: string): value is T {
  return (list as readonly string[]).includes(value);
}
