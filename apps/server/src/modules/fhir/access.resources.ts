import type { AuditEvent, AuditEventAgent, Consent } from '@medplum/fhirtypes';
import { isUuid } from '../../lib/uuid.js';
import { authorizeConsentRead } from '../consents/consents.policy.js';
import {
  findSignatureRecord,
  listPatientSignatures,
  type SignatureRecord,
} from '../consents/consents.repository.js';
import {
  grantFor,
  patientRequired,
  searchPatient,
  type FhirReader,
  type FhirScopeLimit,
  type PatientGrant,
} from './fhir-reader.js';
import { anyOf, dateBounds, emptyResult, ref, single, type ResourceHandler } from './fhir-resource.js';
import { badParam } from './fhir-outcome.js';
import { searchAccessEvents, type AccessEventRow } from './fhir-directory.repository.js';
import { organizationId } from './people.resources.js';

/*
 * AuditEvent: the patient's access log ("who saw my record", the same events as
 * GET /me/record-access), for the patient themself and for staff who may read the audit trail.
 * Consent: the consent documents the patient signed (modules/consents), active or withdrawn, with
 * the signed PDF as the DocumentReference of its chart document.
 */

// ---------------------------------------------------------------- AuditEvent

/** Whether the reader may see this patient's access log: the patient, or staff with audit.read. */
async function accessLogGrant(
  reader: FhirReader,
  limit: FhirScopeLimit,
  patientId: string,
): Promise<PatientGrant | null> {
  const { actor } = reader.ctx;
  if (patientId !== actor.userId && !actor.permissions.has('audit.read')) {
    return null;
  }
  return grantFor(reader, limit, patientId, 'administrative');
}

const dicom = 'http://dicom.nema.org/resources/ontology/DCM';

function actionCode(action: string): AuditEvent['action'] {
  const verb = action.slice(action.lastIndexOf('.') + 1);
  if (verb === 'viewed' || verb === 'downloaded' || verb === 'exported') {
    return 'R';
  }
  if (verb === 'created' || verb === 'uploaded' || verb === 'issued' || verb === 'reported') {
    return 'C';
  }
  if (verb === 'updated' || verb === 'signed' || verb === 'amended') {
    return 'U';
  }
  if (verb === 'deleted' || verb === 'removed') {
    return 'D';
  }
  return 'E';
}

function textOf(details: Record<string, unknown>, key: string): string | null {
  const value = details[key];
  return typeof value === 'string' && value !== '' ? value : null;
}

function actorReference(row: AccessEventRow): NonNullable<AuditEventAgent['who']> {
  const name = row.actorName ?? undefined;
  if (row.actorUserId === null) {
    return { display: 'Telemedicina' };
  }
  const roles = row.actorRoleKeys ?? [];
  if (roles.includes('doctor')) {
    return ref('Practitioner', row.actorUserId, name);
  }
  if (roles.includes('patient') && row.actorUserId === row.patientId) {
    return ref('Patient', row.actorUserId, name);
  }
  return { display: name ?? 'Telemedicina' };
}

export function presentAuditEvent(row: AccessEventRow, origin: string): AuditEvent {
  const { details } = row;
  const client = details.client as { id?: unknown; name?: unknown } | null | undefined;
  const app =
    typeof client === 'object' &&
    client !== null &&
    typeof client.id === 'string' &&
    typeof client.name === 'string'
      ? { id: client.id, name: client.name }
      : null;
  const emergency = row.action === 'record.emergency_access' || details.emergency === true;
  const agents: AuditEventAgent[] = [{ who: actorReference(row), requestor: true }];
  if (app !== null) {
    agents.push({
      type: { coding: [{ system: dicom, code: '110150', display: 'Application' }] },
      who: { identifier: { system: `${origin}/oauth/clients`, value: app.id }, display: app.name },
      requestor: false,
    });
  }
  const what = textOf(details, 'resourceType') ?? textOf(details, 'section');
  const reason = textOf(details, 'reason');
  return {
    resourceType: 'AuditEvent',
    id: String(row.id),
    type:
      textOf(details, 'section') === 'fhir'
        ? {
            system: 'http://terminology.hl7.org/CodeSystem/audit-event-type',
            code: 'rest',
            display: 'RESTful Operation',
          }
        : { system: dicom, code: '110110', display: 'Patient Record' },
    subtype: [{ system: `${origin}/fhir/CodeSystem/audit-action`, code: row.action }],
    action: actionCode(row.action),
    recorded: row.at.toISOString(),
    outcome: '0',
    ...(emergency
      ? {
          purposeOfEvent: [
            {
              coding: [
                {
                  system: 'http://terminology.hl7.org/CodeSystem/v3-ActReason',
                  code: 'ETREAT',
                  display: 'Emergency Treatment',
                },
              ],
              ...(reason === null ? {} : { text: reason }),
            },
          ],
        }
      : {}),
    agent: agents,
    source: { observer: ref('Organization', organizationId) },
    entity: [
      {
        what: ref('Patient', row.patientId),
        type: {
          system: 'http://terminology.hl7.org/CodeSystem/audit-entity-type',
          code: '1',
          display: 'Person',
        },
        role: { system: 'http://terminology.hl7.org/CodeSystem/object-role', code: '1', display: 'Patient' },
        ...(what === null ? {} : { description: what }),
      },
    ],
  };
}

export const auditEventHandler: ResourceHandler = {
  type: 'AuditEvent',
  documentation:
    "A patient's access log (who viewed or changed their record, apps' reads included), as GET /me/record-access lists it; for the patient, and staff who may read the audit trail.",
  searchParams: [
    { name: 'patient', type: 'reference', documentation: 'The patient (Patient/<id>).' },
    { name: 'date', type: 'date', documentation: 'When (eq, ge, gt, le, lt).' },
  ],
  async read(reader, limit, id) {
    if (!/^\d{1,15}$/.test(id)) {
      return null;
    }
    const { rows } = await searchAccessEvents(reader.ctx.db, {
      patientId: null,
      id: Number(id),
      dates: [],
      limit: 1,
      offset: 0,
    });
    const row = rows[0];
    const grant =
      row === undefined || !isUuid(row.patientId) ? null : await accessLogGrant(reader, limit, row.patientId);
    return row === undefined || grant === null
      ? null
      : { resource: presentAuditEvent(row, reader.ctx.config.publicOrigin), patient: grant };
  },
  async search(reader, limit, { params, count, offset }) {
    const dates = dateBounds(params, 'date');
    const target = await searchPatient(reader, limit, single(params, 'patient'), 'administrative');
    if (target.kind === 'missing') {
      throw patientRequired();
    }
    if (target.kind === 'none') {
      return emptyResult;
    }
    const grant = await accessLogGrant(reader, limit, target.grant.patientId);
    if (grant === null) {
      return emptyResult;
    }
    const { rows, total } = await searchAccessEvents(reader.ctx.db, {
      patientId: grant.patientId,
      id: null,
      dates,
      limit: count,
      offset,
    });
    return {
      resources: rows.map((row) => presentAuditEvent(row, reader.ctx.config.publicOrigin)),
      total,
      patients: [grant],
    };
  },
};

// ---------------------------------------------------------------- Consent

const consentScopes = {
  telemedicine: 'treatment',
  procedure: 'treatment',
  data_processing: 'patient-privacy',
} as const;

export function presentConsent(record: SignatureRecord, language: string): Consent {
  const { signature, version, document } = record;
  const title = language === 'en' ? version.titleEn : version.titleEs;
  return {
    resourceType: 'Consent',
    id: signature.id,
    status: signature.withdrawnAt === null ? 'active' : 'inactive',
    scope: {
      coding: [
        { system: 'http://terminology.hl7.org/CodeSystem/consentscope', code: consentScopes[document.kind] },
      ],
    },
    category: [
      { coding: [{ system: 'http://loinc.org', code: '59284-0', display: 'Patient Consent' }] },
      { text: title },
    ],
    patient: ref('Patient', signature.patientUserId),
    dateTime: signature.signedAt.toISOString(),
    performer: [ref('Patient', signature.patientUserId, signature.signerName)],
    organization: [ref('Organization', organizationId)],
    ...(signature.chartDocumentId === null
      ? {
          sourceAttachment: {
            contentType: 'application/pdf',
            title: `${title} (v${version.version})`,
            creation: signature.signedAt.toISOString(),
          },
        }
      : { sourceReference: ref('DocumentReference', signature.chartDocumentId, title) }),
    policyRule: { text: `${title} (v${version.version})` },
    provision: {
      type: 'permit',
      period: {
        start: signature.signedAt.toISOString(),
        ...(signature.withdrawnAt === null ? {} : { end: signature.withdrawnAt.toISOString() }),
      },
    },
  };
}

/** The chart's clinical readers see consents (consents.policy), within the scope's patient limit. */
async function consentGrant(
  reader: FhirReader,
  limit: FhirScopeLimit,
  patientId: string,
): Promise<PatientGrant | null> {
  const grant = await grantFor(reader, limit, patientId, 'clinical');
  if (grant === null) {
    return null;
  }
  const { ctx } = reader;
  return (await authorizeConsentRead(ctx.db, ctx.actor, patientId, ctx.now()).then(
    () => true,
    () => false,
  ))
    ? grant
    : null;
}

export const consentHandler: ResourceHandler = {
  type: 'Consent',
  documentation:
    'The consent documents the patient signed (telemedicine, data processing, procedures): active, or inactive once withdrawn; the signed PDF is the DocumentReference in sourceReference.',
  searchParams: [
    { name: 'patient', type: 'reference', documentation: 'The patient (Patient/<id>).' },
    { name: 'status', type: 'token', documentation: 'active or inactive (withdrawn).' },
  ],
  async read(reader, limit, id) {
    const record = isUuid(id) ? await findSignatureRecord(reader.ctx.db, id) : null;
    const grant = record === null ? null : await consentGrant(reader, limit, record.signature.patientUserId);
    if (record === null || grant === null) {
      return null;
    }
    return { resource: presentConsent(record, grant.chart?.patient.language ?? 'es'), patient: grant };
  },
  async search(reader, limit, { params, count, offset }) {
    const statuses = anyOf(params, 'status');
    for (const status of statuses ?? []) {
      if (!['active', 'inactive', 'draft', 'proposed', 'rejected', 'entered-in-error'].includes(status)) {
        throw badParam('status', `Unknown consent status ${status}.`);
      }
    }
    const target = await searchPatient(reader, limit, single(params, 'patient'), 'clinical');
    if (target.kind === 'missing') {
      throw patientRequired();
    }
    if (target.kind === 'none') {
      return emptyResult;
    }
    const grant = await consentGrant(reader, limit, target.grant.patientId);
    if (grant === null) {
      return emptyResult;
    }
    const language = grant.chart?.patient.language ?? 'es';
    // A patient signs a handful of documents: their list is read whole and paged here.
    const all = (await listPatientSignatures(reader.ctx.db, grant.patientId))
      .map((record) => presentConsent(record, language))
      .filter((consent) => statuses === null || statuses.includes(consent.status));
    return { resources: all.slice(offset, offset + count), total: all.length, patients: [grant] };
  },
};
