import type { Language } from '@telemedicina/shared/i18n';
import type { VitalName } from '@telemedicina/shared/notes';
import {
  createPdfDocument,
  drawClinicHeading,
  drawRule,
  pdfColors,
  pdfMargin,
} from '../prescriptions/prescription-pdf.js';
import { formatCalendarDate, formatInstantWithZone } from '../../lib/clock.js';
import { calendarDateIn } from '../settings/clinic-dates.js';
import { t } from '../../text/catalogue.js';
import { htmlToBlocks } from './html-to-blocks.js';
import type { NoteDiagnosisRow, PrescriptionItemLine, VitalsRow } from './notes.repository.js';

/** What the visit summary shows: the signed note's outcome for the patient, in their language. */
export interface VisitSummaryInput {
  language: Language;
  clinicName: string;
  /** PNG or JPEG bytes of the clinic's logo, when it has one pdfkit can draw. */
  logo: Buffer | null;
  patient: { name: string; dateOfBirth: string | null; timeZone: string };
  doctor: { name: string; licenseNumber: string | null };
  visitStartsAt: Date;
  signedAt: Date;
  diagnoses: readonly NoteDiagnosisRow[];
  /** Sanitized HTML of the plan. */
  planHtml: string;
  prescriptionItems: readonly PrescriptionItemLine[];
  vitals: VitalsRow | null;
}

const margin = pdfMargin;
const { ink, muted, accent } = pdfColors;

/** The file name of a summary in the patient's language, e.g. `resumen-consulta-2026-05-04.pdf`. */
export function visitSummaryFileName(language: Language, visitStartsAt: Date, timeZone: string): string {
  const day = calendarDateIn(visitStartsAt, timeZone);
  return `${t(language, 'fileName.visitSummary')}-${day}.pdf`;
}

/**
 * Renders the visit summary as an A4 PDF in the patient's language (whatever the doctor's), with
 * the clinic heading the prescription uses: patient and doctor, the visit time in the patient's
 * zone, diagnoses, the plan (rich text turned into plain paragraphs and bullets, never rendered as
 * HTML), the medication prescribed at the visit, the reported vitals and the signing date.
 */
export function renderVisitSummaryPdf(input: VisitSummaryInput): Promise<Buffer> {
  const { language } = input;
  const { document, done } = createPdfDocument({
    Title: t(language, 'pdf.visitSummary.title'),
    Author: input.clinicName,
    Subject: t(language, 'pdf.visitSummary.title'),
  });
  const width = document.page.width - margin * 2;
  const zone = input.patient.timeZone;
  const formatDateTime = (value: Date) => formatInstantWithZone(value, input.language, zone, 'longDateTime');
  const formatBirthDate = (value: string) => formatCalendarDate(value, input.language);
  const ensureRoom = (height: number) => {
    if (document.y > document.page.height - margin - height) {
      document.addPage();
      document.x = margin;
    }
  };

  drawClinicHeading(document, {
    logo: input.logo,
    clinicName: input.clinicName,
    title: t(language, 'pdf.visitSummary.title'),
  });

  // Patient and doctor, side by side; then the visit time.
  const columnWidth = (width - 20) / 2;
  const blockTop = document.y + 8;
  const label = (text: string, x: number, y: number) =>
    document
      .fillColor(muted)
      .font('Helvetica')
      .fontSize(8.5)
      .text(text.toUpperCase(), x, y, { width: columnWidth });
  const strong = (text: string, x: number) =>
    document.font('Helvetica-Bold').fontSize(11.5).fillColor(ink).text(text, x, document.y, {
      width: columnWidth,
    });
  const value = (text: string, x: number) =>
    document.fillColor(ink).font('Helvetica').fontSize(10.5).text(text, x, document.y, {
      width: columnWidth,
    });
  label(t(language, 'pdf.common.patient'), margin, blockTop);
  strong(input.patient.name, margin);
  value(
    `${t(language, 'pdf.common.dateOfBirth')}: ${input.patient.dateOfBirth === null ? t(language, 'pdf.common.notGiven') : formatBirthDate(input.patient.dateOfBirth)}`,
    margin,
  );
  const leftBottom = document.y;
  const right = margin + columnWidth + 20;
  label(t(language, 'pdf.common.doctor'), right, blockTop);
  strong(input.doctor.name, right);
  value(
    `${t(language, 'pdf.common.license')}: ${input.doctor.licenseNumber ?? t(language, 'pdf.common.notGiven')}`,
    right,
  );
  document.y = Math.max(leftBottom, document.y) + 8;
  document.x = margin;
  document
    .fillColor(muted)
    .font('Helvetica')
    .fontSize(10)
    .text(`${t(language, 'pdf.visitSummary.visit')}: `, margin, document.y, { continued: true, width })
    .fillColor(ink)
    .text(formatDateTime(input.visitStartsAt));
  document.moveDown(0.6);
  drawRule(document, width);
  document.moveDown(0.8);

  const sectionTitle = (text: string) => {
    ensureRoom(60);
    document.fillColor(accent).font('Helvetica-Bold').fontSize(12).text(text, margin, document.y, { width });
    document.moveDown(0.3);
  };
  const bodyText = (
    text: string,
    options: { indent?: number; marker?: string | null; bold?: boolean } = {},
  ) => {
    ensureRoom(30);
    const indent = options.indent ?? 0;
    const x = margin + indent;
    const y = document.y;
    if (options.marker !== undefined && options.marker !== null) {
      document.fillColor(ink).font('Helvetica').fontSize(10.5).text(options.marker, x, y, { width: 18 });
      document
        .font(options.bold === true ? 'Helvetica-Bold' : 'Helvetica')
        .text(text, x + 18, y, { width: width - indent - 18 });
    } else {
      document
        .fillColor(ink)
        .font(options.bold === true ? 'Helvetica-Bold' : 'Helvetica')
        .fontSize(10.5)
        .text(text, x, y, { width: width - indent });
    }
    document.x = margin;
    document.moveDown(0.25);
  };
  const emptyLine = () => {
    document
      .fillColor(muted)
      .font('Helvetica-Oblique')
      .fontSize(10)
      .text(t(language, 'pdf.visitSummary.none'), margin, document.y, { width });
    document.moveDown(0.25);
  };

  // Diagnoses: code and name in the patient's language.
  sectionTitle(t(language, 'pdf.visitSummary.diagnoses'));
  if (input.diagnoses.length === 0) {
    emptyLine();
  }
  for (const diagnosis of input.diagnoses) {
    const name = input.language === 'es' ? diagnosis.nameEs : diagnosis.nameEn;
    bodyText(
      `${diagnosis.code} · ${name}${diagnosis.isPrimary ? ` (${t(language, 'pdf.visitSummary.primary')})` : ''}`,
      { marker: '•' },
    );
  }
  document.moveDown(0.6);

  // The plan, as plain text.
  sectionTitle(t(language, 'pdf.visitSummary.plan'));
  const blocks = htmlToBlocks(input.planHtml);
  if (blocks.length === 0) {
    emptyLine();
  }
  for (const block of blocks) {
    bodyText(block.text, {
      indent: block.depth * 16,
      marker: block.kind === 'item' ? block.marker : null,
      bold: block.kind === 'heading',
    });
  }
  document.moveDown(0.6);

  // Medication prescribed at the visit.
  sectionTitle(t(language, 'pdf.visitSummary.prescriptions'));
  if (input.prescriptionItems.length === 0) {
    emptyLine();
  }
  for (const item of input.prescriptionItems) {
    const details = [item.dose, item.route, item.frequency, item.duration].filter((part) => part !== '');
    bodyText(item.medication, { marker: '•', bold: true });
    document
      .fillColor(muted)
      .font('Helvetica')
      .fontSize(9.5)
      .text(details.join(' · '), margin + 18, document.y, { width: width - 18 });
    if (item.instructions !== null) {
      document.font('Helvetica-Oblique').text(item.instructions, margin + 18, document.y, {
        width: width - 18,
      });
    }
    document.x = margin;
    document.moveDown(0.35);
  }
  document.moveDown(0.6);

  // Vitals the patient reported.
  sectionTitle(t(language, 'pdf.visitSummary.vitals'));
  const vitals = input.vitals === null ? [] : vitalLines(input.vitals, input.language);
  if (input.vitals === null || vitals.length === 0) {
    emptyLine();
  } else {
    for (const line of vitals) {
      bodyText(line, { marker: '•' });
    }
    document
      .fillColor(muted)
      .font('Helvetica')
      .fontSize(9)
      .text(
        `${t(language, 'pdf.visitSummary.reportedAt')} ${formatDateTime(input.vitals.reportedAt)}`,
        margin,
        document.y,
        { width },
      );
  }
  document.moveDown(1);

  // Signature and a closing line.
  ensureRoom(60);
  drawRule(document, width);
  document.moveDown(0.5);
  document
    .fillColor(ink)
    .font('Helvetica')
    .fontSize(10)
    .text(
      `${t(language, 'pdf.visitSummary.signedAt')} ${formatDateTime(input.signedAt)} · ${input.doctor.name}`,
      margin,
      document.y,
      {
        width,
      },
    );
  document.moveDown(0.4);
  document
    .fillColor(muted)
    .fontSize(9)
    .text(t(language, 'pdf.visitSummary.footer'), margin, document.y, { width });
  document.end();
  return done;
}

/** One line per reported vital, with units; blood pressure as systolic/diastolic. */
function vitalLines(vitals: VitalsRow, language: Language): string[] {
  const number = (value: number, digits: number) =>
    new Intl.NumberFormat(language === 'es' ? 'es-ES' : 'en-GB', {
      maximumFractionDigits: digits,
    }).format(value);
  const lines: string[] = [];
  const add = (name: VitalName, text: string) =>
    lines.push(`${t(language, `pdf.visitSummary.vitalNames.${name}`)}: ${text}`);
  if (vitals.temperatureC !== null) {
    add('temperatureC', `${number(vitals.temperatureC, 1)} °C`);
  }
  if (vitals.systolicMmHg !== null || vitals.diastolicMmHg !== null) {
    add('systolicMmHg', `${vitals.systolicMmHg ?? '–'}/${vitals.diastolicMmHg ?? '–'} mmHg`);
  }
  if (vitals.heartRateBpm !== null) {
    add('heartRateBpm', `${vitals.heartRateBpm} ${t(language, 'pdf.visitSummary.perMinute')}`);
  }
  if (vitals.respiratoryRate !== null) {
    add('respiratoryRate', `${vitals.respiratoryRate} ${t(language, 'pdf.visitSummary.breathsPerMinute')}`);
  }
  if (vitals.oxygenSaturation !== null) {
    add('oxygenSaturation', `${vitals.oxygenSaturation} %`);
  }
  if (vitals.weightKg !== null) {
    add('weightKg', `${number(vitals.weightKg, 1)} kg`);
  }
  if (vitals.heightCm !== null) {
    add('heightCm', `${number(vitals.heightCm, 1)} cm`);
  }
  if (vitals.glucoseMgDl !== null) {
    add('glucoseMgDl', `${vitals.glucoseMgDl} mg/dL`);
  }
  return lines;
}
