import { z } from 'zod';
import { displayText } from './display-text.js';

/**
 * Consent documents written by the clinic (telemedicine, data processing, a procedure) in Spanish
 * and English, versioned: publishing a change makes a new version, and old versions stay for the
 * signatures that refer to them. A patient signs the current version (drawn or typed); the server
 * keeps a signed PDF in their documents, verifiable by a printed code. REST paths under `/api/v1`.
 */

export const consentDocumentKinds = ['telemedicine', 'data_processing', 'procedure'] as const;
export const consentDocumentKindSchema = z.enum(consentDocumentKinds, { message: 'validation.invalid' });
export type ConsentDocumentKind = z.infer<typeof consentDocumentKindSchema>;

/** Kinds every patient is asked to sign before a visit (not blocking). */
export const requiredConsentKinds: readonly ConsentDocumentKind[] = ['telemedicine'];

/** A drawn signature is a PNG of at most this many bytes (a phone canvas is 20–60 kB). */
export const consentSignatureMaxBytes = 200 * 1024;
/** The base64 text of the largest PNG accepted (4 characters per 3 bytes, plus a data URL prefix). */
const signatureMaxChars = Math.ceil(consentSignatureMaxBytes / 3) * 4 + 64;

const text = (max: number) =>
  displayText(
    z
      .string({ message: 'validation.required' })
      .trim()
      .min(1, { message: 'validation.required' })
      .max(max, { message: 'validation.tooLong' }),
  );

export const consentLanguageSchema = z.enum(['es', 'en'], { message: 'validation.invalid' });

/** One published version of a document, both languages. */
export const consentVersionSchema = z.object({
  id: z.string(),
  version: z.number().int(),
  titleEs: z.string(),
  titleEn: z.string(),
  bodyEs: z.string(),
  bodyEn: z.string(),
  publishedAt: z.string(),
});
export type ConsentVersion = z.infer<typeof consentVersionSchema>;

export const consentSignatureMethods = ['drawn', 'typed'] as const;

/** A signature as its signer and their doctors see it. */
export const consentSignatureSchema = z.object({
  id: z.string(),
  documentId: z.string(),
  kind: consentDocumentKindSchema,
  titleEs: z.string(),
  titleEn: z.string(),
  version: z.number().int(),
  method: z.enum(consentSignatureMethods),
  signedAt: z.string(),
  language: consentLanguageSchema,
  contentSha256: z.string(),
  verificationCode: z.string(),
  verificationUrl: z.string(),
  /** The chart document holding the signed PDF. */
  chartDocumentId: z.string().nullable(),
  withdrawnAt: z.string().nullable(),
  withdrawalReason: z.string().nullable(),
});
export type ConsentSignature = z.infer<typeof consentSignatureSchema>;

/**
 * Where a patient stands with one document: `signed` (the current version), `outdated` (an earlier
 * version signed, the current one not), `withdrawn` (their latest signature withdrawn), `not_signed`.
 */
export const consentStates = ['signed', 'outdated', 'withdrawn', 'not_signed'] as const;
export type ConsentState = (typeof consentStates)[number];

export const patientConsentSchema = z.object({
  documentId: z.string(),
  kind: consentDocumentKindSchema,
  titleEs: z.string(),
  titleEn: z.string(),
  required: z.boolean(),
  currentVersion: z.number().int(),
  currentVersionId: z.string(),
  state: z.enum(consentStates),
  /** The latest signature of this document, whichever version. */
  latest: consentSignatureSchema.nullable(),
});
export type PatientConsent = z.infer<typeof patientConsentSchema>;

/** `GET /patients/:patientId/consents`: the patient or a doctor who treats them. */
export const patientConsentsSchema = z.object({
  items: z.array(patientConsentSchema),
  /** A required document's current version is not signed (shown, never blocking). */
  requiredMissing: z.boolean(),
  /** When the account accepted the telemedicine checkbox at registration (kept, not a signature). */
  telemedicineAcceptedAt: z.string().nullable(),
  signatures: z.array(consentSignatureSchema),
});
export type PatientConsents = z.infer<typeof patientConsentsSchema>;

/** `GET /consent-documents/:id`: the current version to read before signing. */
export const consentDocumentSchema = z.object({
  id: z.string(),
  kind: consentDocumentKindSchema,
  current: consentVersionSchema,
});
export type ConsentDocument = z.infer<typeof consentDocumentSchema>;

/** `POST /consent-documents/:id/signatures`. */
export const signConsentRequestSchema = z
  .object({
    versionId: z.uuid({ message: 'validation.id' }),
    language: consentLanguageSchema,
    method: z.enum(consentSignatureMethods, { message: 'validation.invalid' }),
    /** The drawn signature: a PNG as base64, with or without a `data:image/png;base64,` prefix. */
    signaturePng: z.string().max(signatureMaxChars, { message: 'consents.signatureTooLarge' }).optional(),
    /** The typed signature: the signer's full name. */
    typedName: text(120).optional(),
  })
  .superRefine((value, issue) => {
    if (value.method === 'drawn' && (value.signaturePng === undefined || value.signaturePng === '')) {
      issue.addIssue({ code: 'custom', path: ['signaturePng'], message: 'consents.signatureRequired' });
    }
    if (value.method === 'typed' && value.typedName === undefined) {
      issue.addIssue({ code: 'custom', path: ['typedName'], message: 'validation.required' });
    }
  });
export type SignConsentRequest = z.infer<typeof signConsentRequestSchema>;

export const withdrawConsentRequestSchema = z.object({ reason: text(500) });
export type WithdrawConsentRequest = z.infer<typeof withdrawConsentRequestSchema>;

/** `GET /consents/verify/:code` (public): the document, initials, time, hash, withdrawn. */
export const consentVerificationSchema = z.object({
  valid: z.boolean(),
  title: z.string(),
  kind: consentDocumentKindSchema,
  version: z.number().int(),
  signerInitials: z.string(),
  signedAt: z.string(),
  contentSha256: z.string(),
  withdrawnAt: z.string().nullable(),
});
export type ConsentVerification = z.infer<typeof consentVerificationSchema>;

// ---------------------------------------------------------------- administration

export const consentDocumentAdminSchema = z.object({
  id: z.string(),
  kind: consentDocumentKindSchema,
  isSystem: z.boolean(),
  current: consentVersionSchema,
  versions: z.array(consentVersionSchema.pick({ id: true, version: true, publishedAt: true })),
  /** Every signature of any version, withdrawn ones included. */
  signaturesCount: z.number().int(),
  /** Patients whose signature of the current version stands (not withdrawn). */
  currentSignersCount: z.number().int(),
});
export type ConsentDocumentAdmin = z.infer<typeof consentDocumentAdminSchema>;

export const consentDocumentAdminListSchema = z.object({ items: z.array(consentDocumentAdminSchema) });
export type ConsentDocumentAdminList = z.infer<typeof consentDocumentAdminListSchema>;

const versionFields = {
  titleEs: text(200),
  titleEn: text(200),
  bodyEs: text(20000),
  bodyEn: text(20000),
};

/** `POST /admin/consent-documents`: a new document and its version 1. */
export const createConsentDocumentRequestSchema = z.object({
  kind: consentDocumentKindSchema,
  ...versionFields,
});
export type CreateConsentDocumentRequest = z.infer<typeof createConsentDocumentRequestSchema>;

/** `POST /admin/consent-documents/:id/versions`: publish a change as the next version. */
export const publishConsentVersionRequestSchema = z.object(versionFields);
export type PublishConsentVersionRequest = z.infer<typeof publishConsentVersionRequestSchema>;

/**
 * The exact text a signature covers, hashed (SHA-256 of its UTF-8 bytes) and printed in the PDF:
 * the title, a blank line, the body, in the language the patient read.
 */
export function consentSignedContent(title: string, body: string): string {
  return `${title}\n\n${body}`;
}
