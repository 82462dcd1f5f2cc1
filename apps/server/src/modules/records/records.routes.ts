import {
  allergySchema,
  chartQuerySchema,
  chartSchema,
  conditionSchema,
  createAllergyRequestSchema,
  createConditionRequestSchema,
  createMedicationRequestSchema,
  emergencyAccessRequestSchema,
  emergencyAccessSchema,
  medicationSchema,
  patientListQuerySchema,
  patientPageSchema,
  recordAccessPageSchema,
  recordAccessQuerySchema,
  updatePatientProfileRequestSchema,
} from '@telemedicina/shared/records';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../http/error-responses.js';
import { contextFor } from '../../http/service-context.js';
import type { AppServices } from '../context.js';
import type { ChartListKind } from './chart-lists.repository.js';
import { addAllergy, addCondition, addMedication, removeListEntry } from './chart-lists.service.js';
import { readChart } from './chart.service.js';
import { listPatientsFor, updatePatientProfile } from './patients.service.js';
import { grantEmergencyAccess, listMyRecordAccess } from './record-access.service.js';

const errors = errorResponses(400, 401, 403, 404);
const patientParams = z.object({ patientId: z.string().max(64) });
const entryParams = z.object({ patientId: z.string().max(64), entryId: z.string().max(64) });
const noContent = { 204: z.null().describe('Done') };

const readChartAccess = { anyOf: ['records.read.own', 'records.read', 'patients.read.admin'] } as const;
const writeClinical = { anyOf: ['records.write'] } as const;

/**
 * The patient chart: list, chart, edits, emergency access, and the patient's own
 * access log. Every answer carrying chart data writes an audit event (records.audit.test.ts
 * walks these routes to hold that).
 */
export const recordsRoutes: FastifyPluginCallbackZod<{ services: AppServices }> = (
  app,
  { services },
  done,
) => {
  app.get(
    '/patients',
    {
      config: { access: { anyOf: ['records.read', 'patients.read.admin'] } },
      schema: {
        tags: ['records'],
        summary: "A doctor's own patients, or every patient for staff (administrative data)",
        querystring: patientListQuerySchema,
        response: { 200: patientPageSchema, ...errors },
      },
    },
    async (request) => listPatientsFor(contextFor(services, request), request.query),
  );

  app.get(
    '/patients/:patientId/chart',
    {
      config: { access: readChartAccess },
      schema: {
        tags: ['records'],
        summary: 'The patient chart (administrative part only for staff; 404 without a relationship)',
        params: patientParams,
        querystring: chartQuerySchema,
        response: { 200: chartSchema, ...errors },
      },
    },
    async (request) => readChart(contextFor(services, request), request.params.patientId, request.query),
  );

  app.patch(
    '/patients/:patientId/profile',
    {
      config: { access: { anyOf: ['records.write', 'records.read.own'] } },
      schema: {
        tags: ['records'],
        summary: 'Demographics, identity document, emergency contact (the patient: contact details only)',
        params: patientParams,
        body: updatePatientProfileRequestSchema,
        response: { ...noContent, ...errors },
      },
    },
    async (request, reply) => {
      await updatePatientProfile(contextFor(services, request), request.params.patientId, request.body);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/patients/:patientId/allergies',
    {
      config: { access: writeClinical },
      schema: {
        tags: ['records'],
        summary: 'Record an allergy',
        params: patientParams,
        body: createAllergyRequestSchema,
        response: { 201: allergySchema, ...errors },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await addAllergy(contextFor(services, request), request.params.patientId, request.body)),
  );

  app.post(
    '/patients/:patientId/conditions',
    {
      config: { access: writeClinical },
      schema: {
        tags: ['records'],
        summary: 'Record a condition (optionally with a code of the diagnosis catalogue)',
        params: patientParams,
        body: createConditionRequestSchema,
        response: { 201: conditionSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await addCondition(contextFor(services, request), request.params.patientId, request.body)),
  );

  app.post(
    '/patients/:patientId/medications',
    {
      config: { access: writeClinical },
      schema: {
        tags: ['records'],
        summary: 'Record a current medication',
        params: patientParams,
        body: createMedicationRequestSchema,
        response: { 201: medicationSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await addMedication(contextFor(services, request), request.params.patientId, request.body)),
  );

  for (const kind of ['allergies', 'conditions', 'medications'] as const satisfies ChartListKind[]) {
    app.delete(
      `/patients/:patientId/${kind}/:entryId`,
      {
        config: { access: writeClinical },
        schema: {
          tags: ['records'],
          summary: `Remove an entry of ${kind} (kept as history)`,
          params: entryParams,
          response: { ...noContent, ...errors },
        },
      },
      async (request, reply) => {
        await removeListEntry(
          contextFor(services, request),
          kind,
          request.params.patientId,
          request.params.entryId,
        );
        return reply.status(204).send(null);
      },
    );
  }

  app.post(
    '/patients/:patientId/emergency-access',
    {
      config: { access: { anyOf: ['records.emergency'] } },
      schema: {
        tags: ['records'],
        summary: 'Reasoned, audited emergency access to a chart for 60 minutes (the patient is told)',
        params: patientParams,
        body: emergencyAccessRequestSchema,
        response: { 201: emergencyAccessSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await grantEmergencyAccess(contextFor(services, request), request.params.patientId, request.body),
        ),
  );

  app.get(
    '/me/record-access',
    {
      config: { access: { anyOf: ['records.read.own'] } },
      schema: {
        tags: ['records'],
        summary: 'Who viewed or changed my record and when (from the audit trail), newest first',
        querystring: recordAccessQuerySchema,
        response: { 200: recordAccessPageSchema, ...errors },
      },
    },
    async (request) => listMyRecordAccess(contextFor(services, request), request.query),
  );

  done();
};
