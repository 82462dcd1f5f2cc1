import type {
  ConsentDocument,
  ConsentDocumentAdmin,
  ConsentSignature,
  ConsentState,
  ConsentVerification,
  ConsentVersion,
  PatientConsent,
} from '@telemedicina/shared/consents';
import { requiredConsentKinds } from '@telemedicina/shared/consents';
import type {
  ConsentDocumentWithCurrent,
  ConsentVersionRow,
  SignatureRecord,
} from './consents.repository.js';

export function presentVersion(row: ConsentVersionRow): ConsentVersion {
  return {
    id: row.id,
    version: row.version,
    titleEs: row.titleEs,
    titleEn: row.titleEn,
    bodyEs: row.bodyEs,
    bodyEn: row.bodyEn,
    publishedAt: row.publishedAt.toISOString(),
  };
}

export function presentDocument(row: ConsentDocumentWithCurrent): ConsentDocument {
  return { id: row.document.id, kind: row.document.kind, current: presentVersion(row.current) };
}

export function presentSignature(record: SignatureRecord, verificationUrl: string): ConsentSignature {
  const { signature, version, document } = record;
  return {
    id: signature.id,
    documentId: document.id,
    kind: document.kind,
    titleEs: version.titleEs,
    titleEn: version.titleEn,
    version: version.version,
    method: signature.method,
    signedAt: signature.signedAt.toISOString(),
    language: signature.language,
    contentSha256: signature.contentSha256,
    verificationCode: signature.verificationCode,
    verificationUrl,
    chartDocumentId: signature.chartDocumentId,
    withdrawnAt: signature.withdrawnAt?.toISOString() ?? null,
    withdrawalReason: signature.withdrawalReason,
  };
}

/**
 * Where the patient stands with one document, from their latest signature of it: withdrawn,
 * signed (the current version), outdated (an earlier one), or not signed at all.
 */
export function consentStateOf(
  current: ConsentVersionRow,
  latest: SignatureRecord | undefined,
): ConsentState {
  if (latest === undefined) {
    return 'not_signed';
  }
  if (latest.signature.withdrawnAt !== null) {
    return 'withdrawn';
  }
  return latest.version.id === current.id ? 'signed' : 'outdated';
}

export function presentPatientConsent(
  row: ConsentDocumentWithCurrent,
  latest: ConsentSignature | null,
  state: ConsentState,
): PatientConsent {
  return {
    documentId: row.document.id,
    kind: row.document.kind,
    titleEs: row.current.titleEs,
    titleEn: row.current.titleEn,
    required: requiredConsentKinds.includes(row.document.kind) && row.document.systemKey !== null,
    currentVersion: row.current.version,
    currentVersionId: row.current.id,
    state,
    latest,
  };
}

/** Initials only ("M. G. L."): the verifier learns that the paper is genuine, not who the patient is. */
export function initialsOf(name: string): string {
  return name
    .split(/\s+/)
    .filter((part) => part.length > 0)
    .map((part) => `${part.charAt(0).toUpperCase()}.`)
    .join(' ');
}

export function presentVerification(record: SignatureRecord): ConsentVerification {
  const { signature, version, document } = record;
  return {
    valid: signature.withdrawnAt === null,
    title: signature.language === 'en' ? version.titleEn : version.titleEs,
    kind: document.kind,
    version: version.version,
    signerInitials: initialsOf(signature.signerName),
    signedAt: signature.signedAt.toISOString(),
    contentSha256: signature.contentSha256,
    withdrawnAt: signature.withdrawnAt?.toISOString() ?? null,
  };
}

export function presentAdminDocument(
  row: ConsentDocumentWithCurrent,
  versions: readonly ConsentVersionRow[],
  signaturesCount: number,
  currentSignersCount: number,
): ConsentDocumentAdmin {
  return {
    id: row.document.id,
    kind: row.document.kind,
    isSystem: row.document.systemKey !== null,
    current: presentVersion(row.current),
    versions: versions.map((version) => ({
      id: version.id,
      version: version.version,
      publishedAt: version.publishedAt.toISOString(),
    })),
    signaturesCount,
    currentSignersCount,
  };
}
