import type { Organization, Patient, Practitioner } from '@medplum/fhirtypes';
import { isUuid } from '../../lib/uuid.js';
import { loadIdentitySettings } from '../settings/settings.service.js';
import { grantFor, grantsFor, isPatientReader } from './fhir-reader.js';
import { emptyResult, single, type ResourceHandler } from './fhir-resource.js';
import {
  searchPatientRows,
  searchPractitionerRows,
  type FhirPatientRow,
  type PractitionerRow,
} from './fhir.repository.js';
import { badParam } from './fhir-outcome.js';

/** Identifiers: the record's own id as a URN (RFC 3986), the doctor's licence under the clinic's origin. */
const uriSystem = 'urn:ietf:rfc:3986';
const languageSystem = 'urn:ietf:bcp:47';
export const organizationId = 'clinic';

export function presentPatient(row: FhirPatientRow): Patient {
  return {
    resourceType: 'Patient',
    id: row.id,
    meta: { profile: ['http://hl7.org/fhir/uv/ipa/StructureDefinition/ipa-patient'] },
    identifier: [{ system: uriSystem, value: `urn:uuid:${row.id}` }],
    active: true,
    name: [{ text: row.name }],
    telecom: [
      { system: 'email', value: row.email },
      ...(row.phone === null ? [] : [{ system: 'phone' as const, value: row.phone }]),
    ],
    ...(row.dateOfBirth === null ? {} : { birthDate: row.dateOfBirth }),
    communication: [
      { language: { coding: [{ system: languageSystem, code: row.language }] }, preferred: true },
    ],
    managingOrganization: { reference: `Organization/${organizationId}` },
  };
}

export const patientHandler: ResourceHandler = {
  type: 'Patient',
  documentation: 'People with a record: the patient in context, or those the reader may see in the app.',
  supportedProfiles: ['http://hl7.org/fhir/uv/ipa/StructureDefinition/ipa-patient'],
  searchParams: [
    { name: '_id', type: 'token', documentation: 'The patient id.' },
    {
      name: 'identifier',
      type: 'token',
      documentation: `${uriSystem}|urn:uuid:<id>, or the e-mail address.`,
    },
    { name: 'name', type: 'string', documentation: 'Part of the name (case-insensitive).' },
    { name: 'birthdate', type: 'date', documentation: 'The date of birth (YYYY-MM-DD).' },
  ],
  async read(reader, limit, id) {
    const grant = await grantFor(reader, limit, id, 'administrative');
    if (grant === null || grant.chart === null) {
      return null;
    }
    return { resource: presentPatient(grant.chart.patient), patient: grant };
  },
  async search(reader, limit, { params, count, offset }) {
    const { actor } = reader.ctx;
    let onlyIds: string[] | null = null;
    let treatedBy: string | null = null;
    if (limit.patientId !== null) {
      onlyIds = [limit.patientId];
    } else if (isPatientReader(actor)) {
      onlyIds = [actor.userId];
    } else if (actor.permissions.has('patients.read.admin')) {
      onlyIds = null;
    } else if (actor.permissions.has('records.read')) {
      // A clinician's patients: those they treat (emergency access opens one chart, by id).
      treatedBy = actor.userId;
    } else {
      return emptyResult;
    }
    const id = single(params, '_id');
    if (id !== null) {
      onlyIds = isUuid(id) && (onlyIds === null || onlyIds.includes(id)) ? [id] : [];
    }
    let email: string | null = null;
    const identifier = single(params, 'identifier');
    if (identifier !== null) {
      const bar = identifier.indexOf('|');
      const value = bar === -1 ? identifier : identifier.slice(bar + 1);
      const system = bar === -1 ? null : identifier.slice(0, bar);
      if (value.startsWith('urn:uuid:') && (system === null || system === uriSystem)) {
        const byId = value.slice('urn:uuid:'.length);
        onlyIds = isUuid(byId) && (onlyIds === null || onlyIds.includes(byId)) ? [byId] : [];
      } else if (system === null || system === 'email') {
        email = value;
      } else {
        return emptyResult;
      }
    }
    const birthdate = single(params, 'birthdate');
    if (birthdate !== null && !/^\d{4}-\d{2}-\d{2}$/.test(birthdate)) {
      throw badParam('birthdate', 'The search parameter birthdate takes a date (YYYY-MM-DD).');
    }
    const { rows, total } = await searchPatientRows(reader.ctx.db, {
      onlyIds,
      treatedBy,
      name: single(params, 'name'),
      email,
      birthdate,
      limit: count,
      offset,
    });
    // The app's policy decides each one too (the query only narrows who could be listed).
    const grants = await grantsFor(
      reader,
      limit,
      rows.map((row) => row.id),
      'administrative',
    );
    const visible = rows.filter((row) => grants.has(row.id));
    return {
      resources: visible.map(presentPatient),
      total: total - (rows.length - visible.length),
      patients: visible.map((row) => grants.get(row.id)!),
    };
  },
};

export function presentPractitioner(row: PractitionerRow, origin: string): Practitioner {
  return {
    resourceType: 'Practitioner',
    id: row.id,
    meta: { profile: ['http://hl7.org/fhir/uv/ipa/StructureDefinition/ipa-practitioner'] },
    ...(row.licenseNumber === null
      ? {}
      : { identifier: [{ system: `${origin}/fhir/sid/license`, value: row.licenseNumber }] }),
    active: true,
    name: [{ text: row.name }],
    ...(row.languages === null || row.languages.length === 0
      ? {}
      : { communication: row.languages.map((code) => ({ coding: [{ system: languageSystem, code }] })) }),
  };
}

/** Doctors are public in the app (the directory patients book from): any reader sees them. */
export const practitionerHandler: ResourceHandler = {
  type: 'Practitioner',
  documentation: "The clinic's doctors, as its public directory shows them.",
  supportedProfiles: ['http://hl7.org/fhir/uv/ipa/StructureDefinition/ipa-practitioner'],
  searchParams: [
    { name: '_id', type: 'token', documentation: 'The practitioner id.' },
    { name: 'name', type: 'string', documentation: 'Part of the name (case-insensitive).' },
  ],
  async read(reader, _limit, id) {
    if (!isUuid(id)) {
      return null;
    }
    const { rows } = await searchPractitionerRows(reader.ctx.db, { id, name: null, limit: 1, offset: 0 });
    const row = rows[0];
    return row === undefined
      ? null
      : { resource: presentPractitioner(row, reader.ctx.config.publicOrigin), patient: null };
  },
  async search(reader, _limit, { params, count, offset }) {
    const id = single(params, '_id');
    if (id !== null && !isUuid(id)) {
      return emptyResult;
    }
    const { rows, total } = await searchPractitionerRows(reader.ctx.db, {
      id,
      name: single(params, 'name'),
      limit: count,
      offset,
    });
    return {
      resources: rows.map((row) => presentPractitioner(row, reader.ctx.config.publicOrigin)),
      total,
      patients: [],
    };
  },
};

export const organizationHandler: ResourceHandler = {
  type: 'Organization',
  documentation: 'The clinic.',
  searchParams: [],
  async read(reader, _limit, id) {
    if (id !== organizationId) {
      return null;
    }
    const settings = await loadIdentitySettings(reader.ctx.db, reader.ctx.config);
    const organization: Organization = {
      resourceType: 'Organization',
      id: organizationId,
      active: true,
      name: settings.clinicName,
      telecom: [{ system: 'url', value: reader.ctx.config.publicOrigin }],
    };
    return { resource: organization, patient: null };
  },
  async search(reader, limit, request) {
    const found = await organizationHandler.read(reader, limit, organizationId);
    return found === null || request.offset > 0
      ? { ...emptyResult, total: found === null ? 0 : 1 }
      : { resources: [found.resource], total: 1, patients: [] };
  },
};
