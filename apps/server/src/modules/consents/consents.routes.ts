import {
  consentDocumentAdminListSchema,
  consentDocumentAdminSchema,
  consentDocumentSchema,
  consentSignatureSchema,
  consentVerificationSchema,
  createConsentDocumentRequestSchema,
  patientConsentsSchema,
  publishConsentVersionRequestSchema,
  signConsentRequestSchema,
  withdrawConsentRequestSchema,
} from '@telemedicina/shared/consents';
import { verificationCodeParamsSchema } from '@telemedicina/shared/prescriptions';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../http/error-responses.js';
import { rateLimits } from '../../http/rate-limits.js';
import { contextFor } from '../../http/service-context.js';
import { addBookingFollowUp } from '../appointments/booking-follow-ups.js';
import type { AppServices } from '../context.js';
import type { FileStorage } from '../files/file-storage.js';
import {
  createConsentDocument,
  getConsentDocument,
  listConsentDocumentsForAdmin,
  publishConsentVersion,
} from './consent-documents.service.js';
import { requestConsentsAtBooking } from './consent-requests.service.js';
import { signConsent, withdrawConsent } from './consent-signing.service.js';
import { getPatientConsents, verifyConsent } from './consents.service.js';

const idParams = z.object({ id: z.uuid({ message: 'validation.id' }) });
const patientParams = z.object({ patientId: z.uuid({ message: 'validation.id' }) });
/** The patient and doctors; the policy answers 404 to anyone without a care relationship. */
const readers = { anyOf: ['records.read.own', 'records.read', 'patients.read.admin'] } as const;
/** Patients sign and withdraw their own consents. */
const signers = { anyOf: ['records.read.own'] } as const;
/** The clinic's administrators write the documents. */
const editors = { anyOf: ['settings.manage'] } as const;

/** Consent documents, the patient's signatures (signed PDF in their documents), withdrawal, public verification. */
export const consentsRoutes: FastifyPluginCallbackZod<{ services: AppServices; storage: FileStorage }> = (
  app,
  { services, storage },
  done,
) => {
  // A booking (by the patient or reception) asks for the required consents not yet signed.
  addBookingFollowUp(requestConsentsAtBooking);

  app.get(
    '/consent-documents/:id',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['records'],
        summary: 'The current version of a consent document (es and en), to read before signing',
        params: idParams,
        response: { 200: consentDocumentSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => getConsentDocument(contextFor(services, request), request.params.id),
  );

  app.post(
    '/consent-documents/:id/signatures',
    {
      config: { access: signers },
      bodyLimit: 512 * 1024,
      schema: {
        tags: ['records'],
        summary:
          'The patient signs the current version (drawn PNG or typed name); the signed PDF goes to their documents',
        params: idParams,
        body: signConsentRequestSchema,
        response: { 201: consentSignatureSchema, ...errorResponses(400, 401, 403, 404, 413, 422) },
      },
    },
    async (request, reply) => {
      const signature = await signConsent(
        contextFor(services, request),
        storage,
        request.params.id,
        request.body,
      );
      return reply.status(201).send(signature);
    },
  );

  app.get(
    '/patients/:patientId/consents',
    {
      config: { access: readers },
      schema: {
        tags: ['records'],
        summary:
          "A patient's consent state per document and their signatures (the patient or a treating doctor)",
        params: patientParams,
        response: { 200: patientConsentsSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => getPatientConsents(contextFor(services, request), request.params.patientId),
  );

  app.post(
    '/consent-signatures/:id/withdraw',
    {
      config: { access: signers },
      schema: {
        tags: ['records'],
        summary:
          'The patient withdraws a signed consent, with a reason (kept, dated; their doctors are told)',
        params: idParams,
        body: withdrawConsentRequestSchema,
        response: { 200: consentSignatureSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => withdrawConsent(contextFor(services, request), request.params.id, request.body),
  );

  app.get(
    '/consents/verify/:code',
    {
      config: { access: 'public', rateLimit: rateLimits.tokenLookup },
      schema: {
        tags: ['records'],
        summary: 'Check a signed consent code (public): document, signer initials, time, hash, withdrawn',
        params: verificationCodeParamsSchema,
        response: { 200: consentVerificationSchema, ...errorResponses(400, 404, 429) },
      },
    },
    async (request) => verifyConsent(contextFor(services, request), request.params.code),
  );

  app.get(
    '/admin/consent-documents',
    {
      config: { access: editors },
      schema: {
        tags: ['administration'],
        summary: 'Consent documents with their current text, versions and signatures count',
        response: { 200: consentDocumentAdminListSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => listConsentDocumentsForAdmin(contextFor(services, request)),
  );

  app.post(
    '/admin/consent-documents',
    {
      config: { access: editors },
      schema: {
        tags: ['administration'],
        summary: 'Write a new consent document (version 1, es and en)',
        body: createConsentDocumentRequestSchema,
        response: { 201: consentDocumentAdminSchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await createConsentDocument(contextFor(services, request), request.body)),
  );

  app.post(
    '/admin/consent-documents/:id/versions',
    {
      config: { access: editors },
      schema: {
        tags: ['administration'],
        summary: 'Publish a change to a consent document as its next version (patients are asked again)',
        params: idParams,
        body: publishConsentVersionRequestSchema,
        response: { 200: consentDocumentAdminSchema, ...errorResponses(400, 401, 403, 404, 422) },
      },
    },
    async (request) => publishConsentVersion(contextFor(services, request), request.params.id, request.body),
  );

  done();
};
