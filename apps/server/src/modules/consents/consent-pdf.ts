import type { Language } from '@telemedicina/shared/i18n';
import { formatInstantWithZone } from '../../lib/clock.js';
import { t } from '../../text/catalogue.js';
import {
  createPdfDocument,
  drawClinicHeading,
  drawRule,
  pdfColors,
  pdfMargin,
} from '../prescriptions/prescription-pdf.js';

/** Everything the signed consent shows. */
export interface ConsentPdfInput {
  language: Language;
  clinicName: string;
  logo: Buffer | null;
  title: string;
  body: string;
  version: number;
  signer: { name: string; timeZone: string };
  signedAt: Date;
  ip: string | null;
  userAgent: string | null;
  signature: { method: 'drawn'; png: Buffer } | { method: 'typed'; name: string };
  contentSha256: string;
  verificationCode: string;
  verificationUrl: string;
}

const { ink, muted, accent, rule } = pdfColors;
const margin = pdfMargin;

/**
 * The signed consent as an A4 PDF, in the language the patient read it: the document's text as
 * signed, the drawn signature image (or the typed name), the signer, the time in the signer's zone
 * named in words, IP address, browser, the SHA-256 of the text and the verification code and
 * address. Everything typed by people is drawn as text, never interpreted.
 */
export function renderConsentPdf(input: ConsentPdfInput): Promise<Buffer> {
  const { language } = input;
  const { document, done } = createPdfDocument({
    Title: `${input.title} ${input.verificationCode}`,
    Author: input.clinicName,
    Subject: input.title,
  });
  const width = document.page.width - margin * 2;
  drawClinicHeading(document, { logo: input.logo, clinicName: input.clinicName, title: input.title });
  document.moveDown(0.6);
  document
    .fillColor(muted)
    .font('Helvetica')
    .fontSize(9)
    .text(`${t(language, 'pdf.consent.version')} ${input.version}`, margin, document.y, { width });
  document.moveDown(0.5);
  document.fillColor(ink).font('Helvetica').fontSize(10.5);
  for (const paragraph of input.body.split(/\n{2,}/)) {
    document.text(paragraph.trim(), margin, document.y, { width, align: 'left' });
    document.moveDown(0.6);
  }
  if (document.y > document.page.height - margin - 300) {
    document.addPage();
  }
  document.moveDown(0.4);
  drawRule(document, width);
  document.moveDown(0.8);

  // The signature: the drawn image in a box, or the typed name in an oblique face.
  const boxTop = document.y;
  const boxHeight = 90;
  document.roundedRect(margin, boxTop, 260, boxHeight, 6).strokeColor(rule).lineWidth(1).stroke();
  if (input.signature.method === 'drawn') {
    document.image(input.signature.png, margin + 8, boxTop + 6, {
      fit: [244, boxHeight - 12],
      align: 'center',
    });
  } else {
    document
      .fillColor(ink)
      .font('Helvetica-Oblique')
      .fontSize(20)
      .text(input.signature.name, margin + 12, boxTop + boxHeight / 2 - 12, { width: 236, align: 'center' });
  }
  const line = (label: string, value: string) =>
    document
      .fillColor(muted)
      .font('Helvetica')
      .fontSize(9)
      .text(`${label}: `, margin, document.y, { continued: true, width })
      .fillColor(ink)
      .text(value);
  document.y = boxTop + boxHeight + 10;
  line(
    t(language, 'pdf.consent.method'),
    t(language, input.signature.method === 'drawn' ? 'pdf.consent.drawn' : 'pdf.consent.typed'),
  );
  line(t(language, 'pdf.consent.signedBy'), input.signer.name);
  line(
    t(language, 'pdf.consent.signedAt'),
    formatInstantWithZone(input.signedAt, language, input.signer.timeZone, 'longDateTime'),
  );
  line(t(language, 'pdf.consent.ip'), input.ip ?? t(language, 'pdf.common.notGiven'));
  line(t(language, 'pdf.consent.userAgent'), input.userAgent ?? t(language, 'pdf.common.notGiven'));
  document
    .fillColor(muted)
    .font('Helvetica')
    .fontSize(9)
    .text(`${t(language, 'pdf.consent.hash')}:`, margin, document.y, { width });
  document.fillColor(ink).font('Courier').fontSize(8.5).text(input.contentSha256, { width });
  document.moveDown(0.8);

  const verifyTop = document.y;
  document.roundedRect(margin, verifyTop, width, 62, 6).strokeColor(rule).lineWidth(1).stroke();
  document
    .fillColor(muted)
    .font('Helvetica')
    .fontSize(8.5)
    .text(t(language, 'pdf.consent.verification').toUpperCase(), margin + 12, verifyTop + 10, {
      width: width - 24,
    });
  document
    .fillColor(ink)
    .font('Courier-Bold')
    .fontSize(16)
    .text(input.verificationCode, margin + 12, verifyTop + 22, { width: width - 24 });
  document
    .fillColor(muted)
    .font('Helvetica')
    .fontSize(9)
    .text(`${t(language, 'pdf.consent.verifyAt')} `, margin + 12, verifyTop + 44, {
      continued: true,
      width: width - 24,
    })
    .fillColor(accent)
    .text(input.verificationUrl, { link: input.verificationUrl });
  document.end();
  return done;
}
