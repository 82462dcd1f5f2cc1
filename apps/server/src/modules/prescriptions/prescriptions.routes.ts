import {
  cancelPrescriptionRequestSchema,
  createPrescriptionRequestSchema,
  prescriptionListSchema,
  prescriptionSchema,
  prescriptionVerificationSchema,
  verificationCodeParamsSchema,
} from '@telemedicina/shared/prescriptions';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../http/error-responses.js';
import { rateLimits } from '../../http/rate-limits.js';
import { contextFor } from '../../http/service-context.js';
import type { AppServices } from '../context.js';
import type { FileStorage } from '../files/file-storage.js';
import { contentDisposition } from '../outbox/outbox.service.js';
import {
  cancelPrescription,
  getPrescription,
  issuePrescription,
  listPrescriptions,
  renderPrescriptionDocument,
  verifyPrescription,
} from './prescriptions.service.js';

const errors = errorResponses(400, 401, 403, 404);
const idParams = z.object({ id: z.uuid({ message: 'validation.id' }) });
const patientParams = z.object({ patientId: z.uuid({ message: 'validation.id' }) });
/** Doctors who prescribe; the care relationship is checked by the policy (404 otherwise). */
const prescribers = { anyOf: ['prescriptions.write'] } as const;
/**
 * The patient, doctors, and reception/administration — who always get 404 from the policy:
 * a patient's prescriptions are clinical data, as if they did not exist for them.
 */
const readers = { anyOf: ['records.read.own', 'records.read', 'patients.read.admin'] } as const;

/** Prescriptions: issue, read, cancel, the printable PDF, and the public verification of a code. */
export const prescriptionsRoutes: FastifyPluginCallbackZod<{
  services: AppServices;
  storage: FileStorage;
}> = (app, { services, storage }, done) => {
  app.post(
    '/patients/:patientId/prescriptions',
    {
      config: { access: prescribers },
      schema: {
        tags: ['records'],
        summary: 'Issue a prescription to a patient the doctor treats (or holds an emergency access to)',
        params: patientParams,
        body: createPrescriptionRequestSchema,
        response: { 201: prescriptionSchema, ...errors },
      },
    },
    async (request, reply) => {
      const prescription = await issuePrescription(
        contextFor(services, request),
        request.params.patientId,
        request.body,
      );
      return reply.status(201).send(prescription);
    },
  );

  app.get(
    '/patients/:patientId/prescriptions',
    {
      config: { access: readers },
      schema: {
        tags: ['records'],
        summary: "A patient's prescriptions, newest first (the patient, or a doctor who treats them)",
        params: patientParams,
        response: { 200: prescriptionListSchema, ...errors },
      },
    },
    async (request) => listPrescriptions(contextFor(services, request), request.params.patientId),
  );

  app.get(
    '/prescriptions/verify/:code',
    {
      config: { access: 'public', rateLimit: rateLimits.tokenLookup },
      schema: {
        tags: ['records'],
        summary: 'Check a printed verification code (public): validity, date, doctor — never the patient',
        params: verificationCodeParamsSchema,
        response: { 200: prescriptionVerificationSchema, ...errorResponses(400, 404, 429) },
      },
    },
    async (request) => verifyPrescription(contextFor(services, request), request.params.code),
  );

  app.get(
    '/prescriptions/:id',
    {
      config: { access: readers },
      schema: {
        tags: ['records'],
        summary: 'One prescription (the patient, the issuer, or a doctor who treats the patient)',
        params: idParams,
        response: { 200: prescriptionSchema, ...errors },
      },
    },
    async (request) => getPrescription(contextFor(services, request), request.params.id),
  );

  app.get(
    '/prescriptions/:id/pdf',
    {
      config: { access: readers },
      schema: {
        tags: ['records'],
        summary: "The printable prescription (PDF, in the patient's language)",
        params: idParams,
      },
    },
    async (request, reply) => {
      const { bytes, fileName } = await renderPrescriptionDocument(
        contextFor(services, request),
        storage,
        request.params.id,
      );
      return reply
        .header('content-type', 'application/pdf')
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .header('content-disposition', contentDisposition(fileName))
        .send(bytes);
    },
  );

  app.post(
    '/prescriptions/:id/cancel',
    {
      config: { access: prescribers },
      schema: {
        tags: ['records'],
        summary: 'Cancel a prescription (the issuing doctor), with a reason',
        params: idParams,
        body: cancelPrescriptionRequestSchema,
        response: { 200: prescriptionSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => cancelPrescription(contextFor(services, request), request.params.id, request.body),
  );

  done();
};
