import { normalizeVerificationCode } from '@telemedicina/shared/prescriptions';
import type { ConsentVerification, PatientConsents } from '@telemedicina/shared/consents';
import { appError } from '../../lib/app-error.js';
import { type ServiceContext, requireActor } from '../context.js';
import { appLink } from '../email/email.service.js';
import { authorizeConsentRead, grantDetails } from './consents.policy.js';
import {
  consentStateOf,
  presentPatientConsent,
  presentSignature,
  presentVerification,
} from './consents.presenter.js';
import {
  findSignatureByCode,
  findTelemedicineAcceptance,
  listDocumentsWithCurrent,
  listPatientSignatures,
  type SignatureRecord,
} from './consents.repository.js';

/** The public address that checks a signed consent's code. */
export function consentVerificationUrl(ctx: Pick<ServiceContext, 'config'>, code: string): string {
  return appLink(ctx, `/verify-consent/${code}`);
}

/**
 * `GET /patients/:patientId/consents`: where the patient stands with every document (signed vN,
 * outdated, withdrawn, not signed) and all their signatures. The patient, or a doctor who treats
 * them (or holds an emergency access); everyone else 404. Every read is audited on the patient,
 * so it shows in their access log.
 */
export async function getPatientConsents(
  ctx: ServiceContext,
  patientUserId: string,
): Promise<PatientConsents> {
  const actor = requireActor(ctx);
  const grant = await authorizeConsentRead(ctx.db, actor, patientUserId, ctx.now());
  const [documents, signatures, acceptedAt] = [
    await listDocumentsWithCurrent(ctx.db),
    await listPatientSignatures(ctx.db, patientUserId),
    await findTelemedicineAcceptance(ctx.db, patientUserId),
  ];
  const present = (record: SignatureRecord) =>
    presentSignature(record, consentVerificationUrl(ctx, record.signature.verificationCode));
  const items = documents.map((row) => {
    const latest = signatures.find((record) => record.document.id === row.document.id);
    return presentPatientConsent(
      row,
      latest === undefined ? null : present(latest),
      consentStateOf(row.current, latest),
    );
  });
  await ctx.audit({
    action: 'consent.viewed',
    targetType: 'patient',
    targetId: patientUserId,
    details: { signatures: signatures.length, ...grantDetails(grant) },
  });
  return {
    items,
    requiredMissing: items.some((item) => item.required && item.state !== 'signed'),
    telemedicineAcceptedAt: acceptedAt?.toISOString() ?? null,
    signatures: signatures.map(present),
  };
}

/**
 * `GET /consents/verify/:code` (public): the document, the signer's initials, the time, the hash
 * and whether it was withdrawn. Typed codes are forgiven as prescriptions' are; unknown → 404.
 */
export async function verifyConsent(ctx: ServiceContext, typedCode: string): Promise<ConsentVerification> {
  const code = normalizeVerificationCode(typedCode);
  const record = code === null ? null : await findSignatureByCode(ctx.db, code);
  if (record === null) {
    throw appError(
      'NOT_FOUND',
      'No signed consent has this verification code. Check the code and try again.',
    );
  }
  await ctx.audit({
    action: 'consent.verified',
    targetType: 'patient',
    targetId: record.signature.patientUserId,
    details: { signatureId: record.signature.id, withdrawn: record.signature.withdrawnAt !== null },
  });
  return presentVerification(record);
}
