import {
  clinicDayQuerySchema,
  clinicDaySchema,
  patientLookupQuerySchema,
  patientLookupResultSchema,
  patientMatchSchema,
  registerPatientRequestSchema,
} from '@telemedicina/shared/reception';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../http/error-responses.js';
import { contextFor } from '../../http/service-context.js';
import type { AppServices } from '../context.js';
import { lookUpPatients, readClinicDay, registerPatient } from './reception.service.js';

/**
 * Reception's day, so reception books without choosing a doctor first: every doctor's appointments and free times on one day, finding a
 * patient to book for, and registering a patient who calls or walks in. Booking itself is
 * `POST /appointments` with `patientId`.
 */
export const receptionRoutes: FastifyPluginCallbackZod<{ services: AppServices }> = (
  app,
  { services },
  done,
) => {
  app.get(
    '/clinic-day',
    {
      config: { access: { anyOf: ['appointments.read.any', 'visits.host'] } },
      schema: {
        tags: ['appointments'],
        summary:
          "Every doctor's appointments and free slots on one day of the reader's zone (a doctor: their own)",
        querystring: clinicDayQuerySchema,
        response: { 200: clinicDaySchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => readClinicDay(contextFor(services, request), request.query),
  );

  app.get(
    '/patients/lookup',
    {
      config: { access: { anyOf: ['patients.read.admin', 'appointments.book.any'] } },
      schema: {
        tags: ['records'],
        summary: 'Patients by name, email, phone or date of birth (at most 20), to book for them',
        querystring: patientLookupQuerySchema,
        response: { 200: patientLookupResultSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => lookUpPatients(contextFor(services, request), request.query),
  );

  app.post(
    '/patients',
    {
      config: { access: { anyOf: ['patients.register'] } },
      schema: {
        tags: ['records'],
        summary:
          'Register a patient who calls or walks in: the account is created pending and the invitation email lets them set a password (409 CONFLICT when the email has an account)',
        body: registerPatientRequestSchema,
        response: { 201: patientMatchSchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await registerPatient(contextFor(services, request), request.body)),
  );

  done();
};
