import { createHash } from 'node:crypto';
import {
  consentSignedContent,
  signConsentRequestSchema,
  type ConsentSignature,
  type SignConsentRequest,
  type WithdrawConsentRequest,
} from '@telemedicina/shared/consents';
import type { Language } from '@telemedicina/shared/i18n';
import { appError } from '../../lib/app-error.js';
import { isUuid } from '../../lib/uuid.js';
import { type ServiceContext, requireActor } from '../context.js';
import type { FileStorage } from '../files/file-storage.js';
import { insertFile } from '../files/files.repository.js';
import { storeNotifications } from '../notifications/notifications.service.js';
import { generateVerificationCode } from '../prescriptions/verification-code.js';
import { insertDocument as insertChartDocument } from '../records/documents.repository.js';
import { readClinicLogo } from '../settings/clinic-logo.service.js';
import { loadIdentitySettings } from '../settings/settings.service.js';
import { auditIn } from './consent-audit.js';
import { consentFileName } from './consent-file-name.js';
import { renderConsentPdf } from './consent-pdf.js';
import { consentNotFound, requireSigner } from './consents.policy.js';
import { presentSignature } from './consents.presenter.js';
import {
  findDocumentWithCurrent,
  findSignatureRecord,
  findSigner,
  findVersion,
  insertSignature,
  listUpcomingDoctors,
  markWithdrawn,
} from './consents.repository.js';
import { consentVerificationUrl } from './consents.service.js';
import { decodeSignaturePng } from './signature-png.js';

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

/**
 * `POST /consent-documents/:id/signatures`: the patient signs the current version they read, in
 * the language they read it, drawn (a checked PNG) or typed. Everything is checked before a byte
 * is written (unknown or outdated version → 422, bad PNG → 400); the PDF and the signature image
 * are written to storage, then ONE transaction stores both files, the chart document, the
 * signature and the audit event. A rollback removes the written files: nothing is half-saved.
 */
export async function signConsent(
  ctx: ServiceContext,
  storage: FileStorage,
  documentId: string,
  request: SignConsentRequest,
): Promise<ConsentSignature> {
  const actor = requireActor(ctx);
  requireSigner(actor);
  const input = signConsentRequestSchema.parse(request);
  const document = isUuid(documentId) ? await findDocumentWithCurrent(ctx.db, documentId) : null;
  if (document === null) {
    throw consentNotFound();
  }
  const version = await findVersion(ctx.db, input.versionId);
  if (version === null || version.documentId !== documentId) {
    throw appError('UNPROCESSABLE', 'This version of the document does not exist.', {
      reason: 'consents.unknownVersion',
    });
  }
  if (version.id !== document.current.id) {
    throw appError(
      'UNPROCESSABLE',
      'A newer version of this document was published: read it and sign that one.',
      {
        reason: 'consents.outdatedVersion',
        currentVersionId: document.current.id,
      },
    );
  }
  const png = input.method === 'drawn' ? decodeSignaturePng(input.signaturePng ?? '') : null;
  const signer = await findSigner(ctx.db, actor.userId);
  if (signer === null) {
    throw consentNotFound();
  }
  const language: Language = input.language;
  const title = language === 'en' ? version.titleEn : version.titleEs;
  const body = language === 'en' ? version.bodyEn : version.bodyEs;
  const contentSha256 = sha256(consentSignedContent(title, body));
  const signedAt = ctx.now();
  const verificationCode = generateVerificationCode();
  const [settings, logo] = [
    await loadIdentitySettings(ctx.db, ctx.config),
    await readClinicLogo(ctx, storage).catch(() => null),
  ];
  let pdf: Buffer;
  try {
    pdf = await renderConsentPdf({
      language,
      clinicName: settings.clinicName,
      logo:
        logo !== null && (logo.contentType === 'image/png' || logo.contentType === 'image/jpeg')
          ? logo.bytes
          : null,
      title,
      body,
      version: version.version,
      signer: { name: signer.name, timeZone: signer.timeZone },
      signedAt,
      ip: ctx.request.ip,
      userAgent: ctx.request.userAgent,
      signature:
        png === null ? { method: 'typed', name: input.typedName ?? '' } : { method: 'drawn', png: png.bytes },
      contentSha256,
      verificationCode,
      verificationUrl: consentVerificationUrl(ctx, verificationCode),
    });
  } catch {
    // pdfkit could not draw the image even though its chunks were sound (e.g. an unsupported filter).
    throw appError('VALIDATION_FAILED', 'The request is not valid.', {
      issues: [
        { location: 'body', path: 'signaturePng', code: 'invalid_png', message: 'consents.signatureNotPng' },
      ],
    });
  }
  const written: string[] = [];
  try {
    const pdfPath = await storage.write('consents', 'pdf', pdf);
    written.push(pdfPath);
    const pngPath = png === null ? null : await storage.write('consents', 'png', png.bytes);
    if (pngPath !== null) {
      written.push(pngPath);
    }
    const id = await ctx.db.transaction(async (tx) => {
      const pdfFile = await insertFile(tx, {
        ownerUserId: actor.userId,
        sha256: sha256(pdf),
        contentType: 'application/pdf',
        size: pdf.length,
        storagePath: pdfPath,
        createdAt: signedAt,
      });
      const pngFile =
        png === null || pngPath === null
          ? null
          : await insertFile(tx, {
              ownerUserId: actor.userId,
              sha256: sha256(png.bytes),
              contentType: 'image/png',
              size: png.bytes.length,
              width: png.width,
              height: png.height,
              storagePath: pngPath,
              createdAt: signedAt,
            });
      const chartDocumentId = await insertChartDocument(tx, {
        patientUserId: actor.userId,
        fileId: pdfFile.id,
        kind: 'consent',
        category: 'other',
        name: consentFileName(language, title, version.version, signedAt, signer.timeZone),
        uploadedByUserId: actor.userId,
        createdAt: signedAt,
      });
      const signature = await insertSignature(tx, {
        patientUserId: actor.userId,
        versionId: version.id,
        language,
        method: input.method,
        signatureFileId: pngFile?.id ?? null,
        typedName: png === null ? (input.typedName ?? null) : null,
        signerName: signer.name,
        signedAt,
        ip: ctx.request.ip,
        userAgent: ctx.request.userAgent,
        contentSha256,
        pdfFileId: pdfFile.id,
        chartDocumentId,
        verificationCode,
      });
      await auditIn(ctx, tx, {
        action: 'consent.signed',
        targetType: 'patient',
        targetId: actor.userId,
        details: {
          signatureId: signature.id,
          documentId,
          versionId: version.id,
          version: version.version,
          method: input.method,
          contentSha256,
          chartDocumentId,
        },
      });
      return signature.id;
    });
    const record = await findSignatureRecord(ctx.db, id);
    if (record === null) {
      throw consentNotFound();
    }
    return presentSignature(record, consentVerificationUrl(ctx, verificationCode));
  } catch (error) {
    await Promise.all(written.map((path) => storage.remove(path).catch(() => undefined)));
    throw error;
  }
}

/**
 * `POST /consent-signatures/:id/withdraw`: the patient withdraws a signature, with a reason;
 * recorded and dated, never deleted (409 when already withdrawn). The doctors with a visit still
 * to come with them are told in-app, pushed after the commit.
 */
export async function withdrawConsent(
  ctx: ServiceContext,
  signatureId: string,
  request: WithdrawConsentRequest,
): Promise<ConsentSignature> {
  const actor = requireActor(ctx);
  const existing = isUuid(signatureId) ? await findSignatureRecord(ctx.db, signatureId) : null;
  if (existing === null) {
    throw consentNotFound();
  }
  requireSigner(actor, existing.signature.patientUserId);
  const now = ctx.now();
  const push = await ctx.db.transaction(async (tx) => {
    const row = await markWithdrawn(tx, signatureId, now, request.reason);
    if (row === null) {
      throw appError('CONFLICT', 'This consent was already withdrawn.');
    }
    const doctors = await listUpcomingDoctors(tx, actor.userId, now);
    const pushNotifications = await storeNotifications(
      ctx,
      tx,
      doctors.map((doctor) => ({
        userId: doctor.doctorUserId,
        kind: 'consent.withdrawn' as const,
        data: {
          patientId: actor.userId,
          appointmentId: doctor.appointmentId,
          startsAt: doctor.startsAt.toISOString(),
          documentId: existing.document.id,
          kind: existing.document.kind,
          version: existing.version.version,
          signatureId,
        },
        createdAt: now,
      })),
    );
    await auditIn(ctx, tx, {
      action: 'consent.withdrawn',
      targetType: 'patient',
      targetId: actor.userId,
      details: {
        signatureId,
        documentId: existing.document.id,
        version: existing.version.version,
        doctorsNotified: doctors.map((doctor) => doctor.doctorUserId),
      },
    });
    return pushNotifications;
  });
  push();
  const record = await findSignatureRecord(ctx.db, signatureId);
  if (record === null) {
    throw consentNotFound();
  }
  return presentSignature(record, consentVerificationUrl(ctx, record.signature.verificationCode));
}
