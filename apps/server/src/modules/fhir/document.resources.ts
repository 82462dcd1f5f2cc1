import type { Binary, DocumentReference } from '@medplum/fhirtypes';
import { isUuid } from '../../lib/uuid.js';
import {
  findPrescriptionRecord,
  listPatientPrescriptions,
} from '../prescriptions/prescriptions.repository.js';
import { renderPrescriptionDocument } from '../prescriptions/prescriptions.service.js';
import { findDocument, findDocuments, type DocumentRow } from '../records/documents.repository.js';
import {
  grantFor,
  patientRequired,
  searchPatient,
  type FhirReader,
  type PatientGrant,
} from './fhir-reader.js';
import type { FhirScopeLimit } from './fhir-reader.js';
import { emptyResult, ref, single, type RawContent, type ResourceHandler } from './fhir-resource.js';
import { findDocumentPatientId, searchDocumentEntries } from './fhir.repository.js';

/*
 * DocumentReference for the chart's documents (uploads and visit summaries) and for prescription
 * PDFs (id `rx-<prescription id>`); the bytes behind each are a Binary of the same id.
 */

const loinc = 'http://loinc.org';
const rxPrefix = 'rx-';
/** How many of a patient's documents one search lists at most (as the chart does). */
const listLimit = 500;
/** How many prescriptions: the newest 200, as listPatientPrescriptions reads them. */
const prescriptionLimit = 200;

const documentTypes = {
  visit_summary: { code: '34133-9', display: 'Summary of episode note' },
  prescription: { code: '57833-6', display: 'Prescription for medication' },
  upload: { code: '51855-5', display: 'Patient Note' },
} as const;

const typeOf = (code: keyof typeof documentTypes) => ({
  coding: [{ system: loinc, code: documentTypes[code].code, display: documentTypes[code].display }],
  text: documentTypes[code].display,
});

function presentChartDocument(row: DocumentRow): DocumentReference {
  return {
    resourceType: 'DocumentReference',
    id: row.id,
    status: 'current',
    type: typeOf(row.kind === 'visit_summary' ? 'visit_summary' : 'upload'),
    category: [{ text: row.category }],
    subject: ref('Patient', row.patientUserId),
    date: row.createdAt.toISOString(),
    ...(row.uploadedByUserId === null
      ? {}
      : {
          author: [
            ref(
              row.uploadedByUserId === row.patientUserId ? 'Patient' : 'Practitioner',
              row.uploadedByUserId,
              row.uploadedByName ?? undefined,
            ),
          ],
        }),
    description: row.name,
    content: [
      {
        attachment: {
          contentType: row.contentType,
          url: `Binary/${row.id}`,
          size: row.size,
          title: row.name,
          creation: row.createdAt.toISOString(),
        },
      },
    ],
    ...(row.appointmentId === null ? {} : { context: { encounter: [ref('Encounter', row.appointmentId)] } }),
  };
}

interface PrescriptionListing {
  id: string;
  verificationCode: string;
  status: 'active' | 'cancelled';
  issuedAt: Date;
  appointmentId: string | null;
  doctorId: string;
  doctorName: string;
}

function presentPrescriptionDocument(row: PrescriptionListing, patientId: string): DocumentReference {
  return {
    resourceType: 'DocumentReference',
    id: `${rxPrefix}${row.id}`,
    status: row.status === 'cancelled' ? 'superseded' : 'current',
    type: typeOf('prescription'),
    category: [{ text: 'prescription' }],
    subject: ref('Patient', patientId),
    date: row.issuedAt.toISOString(),
    author: [ref('Practitioner', row.doctorId, row.doctorName)],
    description: `Prescription ${row.verificationCode}`,
    content: [
      {
        attachment: {
          contentType: 'application/pdf',
          url: `Binary/${rxPrefix}${row.id}`,
          title: `${row.verificationCode}.pdf`,
          creation: row.issuedAt.toISOString(),
        },
      },
    ],
    ...(row.appointmentId === null ? {} : { context: { encounter: [ref('Encounter', row.appointmentId)] } }),
  };
}

/** What is behind an id: a chart document or a prescription, with its patient's grant. */
async function locate(
  reader: FhirReader,
  limit: FhirScopeLimit,
  id: string,
): Promise<
  | { kind: 'document'; row: DocumentRow; grant: PatientGrant }
  | { kind: 'prescription'; row: PrescriptionListing; grant: PatientGrant }
  | null
> {
  const { db } = reader.ctx;
  if (id.startsWith(rxPrefix)) {
    const prescriptionId = id.slice(rxPrefix.length);
    const record = isUuid(prescriptionId) ? await findPrescriptionRecord(db, prescriptionId) : null;
    const grant = record === null ? null : await grantFor(reader, limit, record.patient.id, 'prescriptions');
    if (record === null || grant === null) {
      return null;
    }
    const { prescription, doctor } = record;
    return {
      kind: 'prescription',
      grant,
      row: {
        id: prescription.id,
        verificationCode: prescription.verificationCode,
        status: prescription.status,
        issuedAt: prescription.issuedAt,
        appointmentId: prescription.appointmentId,
        doctorId: doctor.id,
        doctorName: doctor.name,
      },
    };
  }
  if (!isUuid(id)) {
    return null;
  }
  const patientId = await findDocumentPatientId(db, id);
  const grant = patientId === null ? null : await grantFor(reader, limit, patientId, 'clinical');
  const row = grant === null ? null : await findDocument(db, grant.patientId, id);
  return row === null || grant === null || row.removedAt !== null ? null : { kind: 'document', row, grant };
}

export const documentReferenceHandler: ResourceHandler = {
  type: 'DocumentReference',
  documentation:
    "The chart's documents (uploads, visit summaries) and prescription PDFs (ids rx-<id>); the bytes are Binary/<same id>.",
  searchParams: [{ name: 'patient', type: 'reference', documentation: 'The patient (Patient/<id>).' }],
  async read(reader, limit, id) {
    const found = await locate(reader, limit, id);
    if (found === null) {
      return null;
    }
    return {
      resource:
        found.kind === 'document'
          ? presentChartDocument(found.row)
          : presentPrescriptionDocument(found.row, found.grant.patientId),
      patient: found.grant,
    };
  },
  async search(reader, limit, { params, count, offset }) {
    const target = await searchPatient(reader, limit, single(params, 'patient'), 'clinical');
    if (target.kind === 'missing') {
      throw patientRequired();
    }
    if (target.kind === 'none') {
      return emptyResult;
    }
    const patientId = target.grant.patientId;
    const prescriptionGrant = await grantFor(reader, limit, patientId, 'prescriptions');
    // The page is chosen in SQL; then only its documents and prescriptions are read.
    const { entries, total } = await searchDocumentEntries(reader.ctx.db, {
      patientId,
      withPrescriptions: prescriptionGrant !== null,
      documentCap: listLimit,
      prescriptionCap: prescriptionLimit,
      limit: count,
      offset,
    });
    const documentIds = entries.filter((entry) => entry.kind === 'document').map((entry) => entry.id);
    const hasPrescriptions = entries.some((entry) => entry.kind === 'prescription');
    const [documents, prescriptions] = await Promise.all([
      findDocuments(reader.ctx.db, patientId, documentIds),
      hasPrescriptions ? listPatientPrescriptions(reader.ctx.db, patientId) : Promise.resolve([]),
    ]);
    const documentById = new Map(documents.map((row) => [row.id, row]));
    const prescriptionById = new Map(prescriptions.map((row) => [row.id, row]));
    const resources = entries.flatMap((entry) => {
      if (entry.kind === 'document') {
        const row = documentById.get(entry.id);
        return row === undefined ? [] : [presentChartDocument(row)];
      }
      const row = prescriptionById.get(entry.id);
      return row === undefined ? [] : [presentPrescriptionDocument(row, patientId)];
    });
    return { resources, total, patients: [target.grant] };
  },
};

export const binaryHandler: ResourceHandler = {
  type: 'Binary',
  documentation:
    'The bytes of a DocumentReference (same id): as a Binary resource with base64 data for Accept: application/fhir+json, else raw with their content type.',
  searchParams: null,
  async read(reader, limit, id) {
    const found = await locate(reader, limit, id);
    if (found === null) {
      return null;
    }
    let raw: RawContent;
    if (found.kind === 'document') {
      raw = { contentType: found.row.contentType, bytes: await reader.storage.read(found.row.storagePath) };
    } else {
      // The prescriptions module renders (and audits) its own PDF, under its own policy.
      const { bytes } = await renderPrescriptionDocument(reader.ctx, reader.storage, found.row.id);
      raw = { contentType: 'application/pdf', bytes };
    }
    const binary: Binary = {
      resourceType: 'Binary',
      id,
      contentType: raw.contentType,
      securityContext: ref('DocumentReference', id),
      data: raw.bytes.toString('base64'),
    };
    return { resource: binary, patient: found.grant, raw };
  },
};
