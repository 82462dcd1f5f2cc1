import {
  intakeFormListSchema,
  intakeResponseDetailSchema,
  saveIntakeAnswersRequestSchema,
} from '@telemedicina/shared/intake';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../http/error-responses.js';
import { contextFor } from '../../http/service-context.js';
import type { AppServices } from '../context.js';
import {
  getIntakeResponse,
  listAppointmentForms,
  listPatientForms,
  saveIntakeAnswers,
} from './intake.service.js';

const errors = errorResponses(400, 401, 403, 404, 409, 422);
const idParams = z.object({ id: z.string().max(64) });
/** Patients read and answer their own; doctors read their patients' (the service checks the care relationship). */
const readers = { anyOf: ['records.read.own', 'records.read'] } as const;
const patients = { anyOf: ['records.read.own'] } as const;

/** Intake forms (issue 25): the forms due for an appointment, one response, autosave and submit. */
export const intakeRoutes: FastifyPluginCallbackZod<{ services: AppServices }> = (
  app,
  { services },
  done,
) => {
  app.get(
    '/appointments/:id/intake-forms',
    {
      config: { access: readers },
      schema: {
        tags: ['intake'],
        summary: 'The forms due for an appointment, with status and (completed instruments) score; audited',
        params: idParams,
        response: { 200: intakeFormListSchema, ...errors },
      },
    },
    async (request) => ({
      data: await listAppointmentForms(contextFor(services, request), request.params.id),
    }),
  );

  app.get(
    '/patients/:id/intake-responses',
    {
      config: { access: readers },
      schema: {
        tags: ['intake'],
        summary: "A patient's forms, newest first (scores over time); the chart's access rule; audited",
        params: idParams,
        response: { 200: intakeFormListSchema, ...errors },
      },
    },
    async (request) => ({ data: await listPatientForms(contextFor(services, request), request.params.id) }),
  );

  app.get(
    '/intake-responses/:id',
    {
      config: { access: readers },
      schema: {
        tags: ['intake'],
        summary: 'One response with the exact questionnaire version it answers (FHIR R4 JSON); audited',
        params: idParams,
        response: { 200: intakeResponseDetailSchema, ...errors },
      },
    },
    async (request) => getIntakeResponse(contextFor(services, request), request.params.id),
  );

  app.put(
    '/intake-responses/:id/answers',
    {
      config: { access: patients },
      schema: {
        tags: ['intake'],
        summary: 'Autosave: the answers so far (422 naming the items that do not fit; nothing saved then)',
        params: idParams,
        body: saveIntakeAnswersRequestSchema,
        response: { 200: intakeResponseDetailSchema, ...errors },
      },
    },
    async (request) =>
      saveIntakeAnswers(contextFor(services, request), request.params.id, request.body.answers, false),
  );

  app.post(
    '/intake-responses/:id/submit',
    {
      config: { access: patients },
      schema: {
        tags: ['intake'],
        summary:
          'Submit: every answer, checked against the version (422 naming the items; nothing saved then)',
        params: idParams,
        body: saveIntakeAnswersRequestSchema,
        response: { 200: intakeResponseDetailSchema, ...errors },
      },
    },
    async (request) =>
      saveIntakeAnswers(contextFor(services, request), request.params.id, request.body.answers, true),
  );

  done();
};
