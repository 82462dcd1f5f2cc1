import PDFDocument from 'pdfkit';
import type { Language } from '@telemedicina/shared/i18n';
import { formatCalendarDate, formatInstantWithZone } from '../../lib/clock.js';
import { t } from '../../text/catalogue.js';
import type { PrescriptionRecord } from './prescriptions.repository.js';

/** What the PDF shows besides the prescription itself. */
export interface PrescriptionPdfContext {
  language: Language;
  clinicName: string;
  /** The patient's zone: the document is theirs, in their language, and says its times in it. */
  timeZone: string;
  /** PNG or JPEG bytes of the clinic's logo, when it has one pdfkit can draw. */
  logo: Buffer | null;
  specialties: readonly string[];
  verificationUrl: string;
}

/** Page margin and colours of the clinic's printable documents. */
export const pdfMargin = 50;
const margin = pdfMargin;
export const pdfColors = { ink: '#1a1a1a', muted: '#5f6b7a', accent: '#1c6ea4', rule: '#d0d7de' } as const;
const { ink, muted, accent, rule } = pdfColors;

/**
 * Renders a prescription as an A4 PDF in the given language with pdfkit's standard Helvetica
 * (WinAnsi: covers Spanish á é í ó ú ü ñ ¿ ¡). Everything the doctor typed is drawn as text,
 * never interpreted. A cancelled prescription carries a diagonal watermark and the reason.
 */
export function renderPrescriptionPdf(
  record: PrescriptionRecord,
  context: PrescriptionPdfContext,
): Promise<Buffer> {
  const { language } = context;
  const { prescription, items, patient, doctor } = record;
  const { document, done } = createPdfDocument({
    Title: `${t(language, 'pdf.prescription.title')} ${prescription.verificationCode}`,
    Author: context.clinicName,
    Subject: t(language, 'pdf.prescription.title'),
  });

  const width = document.page.width - margin * 2;
  const formatDate = (value: Date) =>
    formatInstantWithZone(value, context.language, context.timeZone, 'longDateTime');
  const formatBirthDate = (value: string) => formatCalendarDate(value, context.language);

  drawClinicHeading(document, {
    logo: context.logo,
    clinicName: context.clinicName,
    title: t(language, 'pdf.prescription.title'),
  });

  // Doctor and patient, side by side.
  const columnWidth = (width - 20) / 2;
  const blockTop = document.y + 8;
  const label = (text: string, x: number, y: number) =>
    document
      .fillColor(muted)
      .font('Helvetica')
      .fontSize(8.5)
      .text(text.toUpperCase(), x, y, { width: columnWidth });
  const value = (text: string, x: number) =>
    document
      .fillColor(ink)
      .font('Helvetica')
      .fontSize(10.5)
      .text(text, x, document.y, { width: columnWidth });
  label(t(language, 'pdf.common.doctor'), margin, blockTop);
  document
    .font('Helvetica-Bold')
    .fontSize(11.5)
    .fillColor(ink)
    .text(doctor.name, margin, document.y, { width: columnWidth });
  value(
    `${t(language, 'pdf.common.license')}: ${doctor.licenseNumber ?? t(language, 'pdf.common.notGiven')}`,
    margin,
  );
  if (context.specialties.length > 0) {
    value(`${t(language, 'pdf.prescription.specialties')}: ${context.specialties.join(', ')}`, margin);
  }
  const leftBottom = document.y;
  const right = margin + columnWidth + 20;
  label(t(language, 'pdf.common.patient'), right, blockTop);
  document
    .font('Helvetica-Bold')
    .fontSize(11.5)
    .fillColor(ink)
    .text(patient.name, right, document.y, { width: columnWidth });
  value(
    `${t(language, 'pdf.common.dateOfBirth')}: ${patient.dateOfBirth === null ? t(language, 'pdf.common.notGiven') : formatBirthDate(patient.dateOfBirth)}`,
    right,
  );
  value(`${t(language, 'pdf.prescription.issuedAt')}: ${formatDate(prescription.issuedAt)}`, right);
  document.y = Math.max(leftBottom, document.y) + 12;
  document.x = margin;
  drawRule(document, width);
  document.moveDown(0.8);

  // Items: one numbered block each, the medication in bold, the details in a two-column grid.
  items.forEach((item, index) => {
    if (document.y > document.page.height - margin - 140) {
      document.addPage();
    }
    const y = document.y;
    document
      .fillColor(accent)
      .font('Helvetica-Bold')
      .fontSize(12)
      .text(`${index + 1}.`, margin, y, { width: 20 });
    document
      .fillColor(ink)
      .font('Helvetica-Bold')
      .fontSize(12)
      .text(item.medication, margin + 22, y, { width: width - 22 });
    document.moveDown(0.25);
    const details: [string, string][] = [
      [t(language, 'pdf.prescription.dose'), item.dose],
      [t(language, 'pdf.prescription.route'), item.route],
      [t(language, 'pdf.prescription.frequency'), item.frequency],
      [t(language, 'pdf.prescription.duration'), item.duration],
      [t(language, 'pdf.prescription.quantity'), item.quantity],
    ];
    const cell = (width - 22) / 2;
    for (let row = 0; row < details.length; row += 2) {
      const rowTop = document.y;
      let bottom = rowTop;
      for (let column = 0; column < 2; column += 1) {
        const entry = details[row + column];
        if (entry === undefined) {
          continue;
        }
        const x = margin + 22 + column * cell;
        document
          .fillColor(muted)
          .font('Helvetica')
          .fontSize(9.5)
          .text(`${entry[0]}: `, x, rowTop, { continued: true, width: cell - 8 })
          .fillColor(ink)
          .text(entry[1]);
        bottom = Math.max(bottom, document.y);
      }
      document.y = bottom + 2;
    }
    if (item.instructions !== null) {
      document
        .fillColor(muted)
        .font('Helvetica')
        .fontSize(9.5)
        .text(`${t(language, 'pdf.prescription.instructions')}: `, margin + 22, document.y, {
          continued: true,
          width: width - 22,
        })
        .fillColor(ink)
        .font('Helvetica-Oblique')
        .text(item.instructions);
    }
    document.x = margin;
    document.moveDown(0.9);
  });

  if (prescription.notes !== null) {
    drawRule(document, width);
    document.moveDown(0.5);
    document
      .fillColor(muted)
      .font('Helvetica')
      .fontSize(8.5)
      .text(t(language, 'pdf.prescription.notes').toUpperCase(), margin, document.y, { width });
    document.fillColor(ink).fontSize(10.5).text(prescription.notes, { width });
    document.moveDown(0.8);
  }

  if (prescription.status === 'cancelled' && prescription.cancelledAt !== null) {
    document
      .fillColor('#b42318')
      .font('Helvetica-Bold')
      .fontSize(11)
      .text(
        `${t(language, 'pdf.prescription.cancelledOn')} ${formatDate(prescription.cancelledAt)}`,
        margin,
        document.y,
        { width },
      );
    if (prescription.cancellationReason !== null) {
      document
        .font('Helvetica')
        .fontSize(10)
        .text(`${t(language, 'pdf.prescription.reason')}: ${prescription.cancellationReason}`, { width });
    }
    document.moveDown(0.8);
  }

  // Signature line and the verification box, kept together at the foot.
  if (document.y > document.page.height - margin - 150) {
    document.addPage();
  }
  const footTop = Math.max(document.y + 20, document.page.height - margin - 130);
  document
    .strokeColor(ink)
    .lineWidth(0.7)
    .moveTo(margin + width - 200, footTop)
    .lineTo(margin + width, footTop)
    .stroke();
  document
    .fillColor(muted)
    .font('Helvetica')
    .fontSize(9)
    .text(t(language, 'pdf.prescription.signature'), margin + width - 200, footTop + 4, {
      width: 200,
      align: 'center',
    });
  const boxTop = footTop + 34;
  document.roundedRect(margin, boxTop, width, 62, 6).strokeColor(rule).lineWidth(1).stroke();
  document
    .fillColor(muted)
    .fontSize(8.5)
    .text(t(language, 'pdf.prescription.verification').toUpperCase(), margin + 12, boxTop + 10, {
      width: width - 24,
    });
  document
    .fillColor(ink)
    .font('Courier-Bold')
    .fontSize(16)
    .text(prescription.verificationCode, margin + 12, boxTop + 22, { width: width - 24 });
  document
    .fillColor(muted)
    .font('Helvetica')
    .fontSize(9)
    .text(`${t(language, 'pdf.prescription.verifyAt')} `, margin + 12, boxTop + 44, {
      continued: true,
      width: width - 24,
    })
    .fillColor(accent)
    .text(context.verificationUrl, { link: context.verificationUrl });

  if (prescription.status === 'cancelled') {
    const range = document.bufferedPageRange();
    for (let page = range.start; page < range.start + range.count; page += 1) {
      document.switchToPage(page);
      drawWatermark(document, t(language, 'pdf.prescription.cancelled'));
    }
  }
  document.end();
  return done;
}

/**
 * An A4 pdfkit document with the clinic's margins and buffered pages, and the promise of its
 * bytes once `end()` is called. Shared by the prescription and the visit summary.
 */
export function createPdfDocument(info: PDFKit.DocumentInfo): {
  document: PDFKit.PDFDocument;
  done: Promise<Buffer>;
} {
  const document = new PDFDocument({ size: 'A4', margin, bufferPages: true, info });
  const chunks: Buffer[] = [];
  document.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    document.on('end', () => resolve(Buffer.concat(chunks)));
    document.on('error', reject);
  });
  return { document, done };
}

/** The heading of the clinic's documents: logo (when pdfkit can draw it), clinic name, title, a rule. */
export function drawClinicHeading(
  document: PDFKit.PDFDocument,
  heading: { logo: Buffer | null; clinicName: string; title: string },
): void {
  const width = document.page.width - margin * 2;
  let top = margin;
  if (heading.logo !== null) {
    try {
      document.image(heading.logo, margin, top, { fit: [120, 48] });
      top += 56;
    } catch {
      // A logo pdfkit cannot read is left out rather than failing the document.
    }
  }
  document
    .fillColor(ink)
    .font('Helvetica-Bold')
    .fontSize(18)
    .text(heading.clinicName, margin, top, { width });
  document.moveDown(0.2);
  document.fillColor(accent).font('Helvetica').fontSize(13).text(heading.title, { width });
  document.moveDown(0.6);
  drawRule(document, width);
}

/** A full-width hairline at the current position. */
export function drawRule(document: PDFKit.PDFDocument, width: number): void {
  document
    .strokeColor(rule)
    .lineWidth(1)
    .moveTo(margin, document.y)
    .lineTo(margin + width, document.y)
    .stroke();
}

function drawWatermark(document: PDFKit.PDFDocument, text: string): void {
  const { width, height } = document.page;
  document.save();
  document.rotate(-35, { origin: [width / 2, height / 2] });
  document
    .fillColor('#b42318')
    .fillOpacity(0.18)
    .font('Helvetica-Bold')
    .fontSize(96)
    .text(text, 0, height / 2 - 48, { width, align: 'center', lineBreak: false });
  document.restore();
  document.fillOpacity(1);
}
