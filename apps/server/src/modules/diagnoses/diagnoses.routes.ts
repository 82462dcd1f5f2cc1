import {
  diagnosisListSchema,
  diagnosisSchema,
  diagnosisSearchQuerySchema,
} from '@telemedicina/shared/prescriptions';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../http/error-responses.js';
import { contextFor } from '../../http/service-context.js';
import type { AppServices } from '../context.js';
import { getDiagnosis, searchDiagnoses } from './diagnoses.service.js';

const errors = errorResponses(400, 401, 403, 404);
/** Whoever writes or reads clinical records (doctors); the catalogue itself is not personal data. */
const clinicians = { anyOf: ['records.write', 'records.read'] } as const;

/** The diagnosis catalogue (ICD-10 subset, Spanish and English). */
export const diagnosesRoutes: FastifyPluginCallbackZod<{ services: AppServices }> = (
  app,
  { services },
  done,
) => {
  app.get(
    '/diagnoses',
    {
      config: { access: clinicians },
      schema: {
        tags: ['records'],
        summary: 'Search the diagnosis catalogue by code prefix or words (either language, accents ignored)',
        querystring: diagnosisSearchQuerySchema,
        response: { 200: diagnosisListSchema, ...errors },
      },
    },
    async (request) => searchDiagnoses(contextFor(services, request), request.query),
  );

  app.get(
    '/diagnoses/:code',
    {
      config: { access: clinicians },
      schema: {
        tags: ['records'],
        summary: 'One code of the diagnosis catalogue',
        params: z.object({ code: z.string().max(16, { message: 'validation.invalid' }) }),
        response: { 200: diagnosisSchema, ...errors },
      },
    },
    async (request) => getDiagnosis(contextFor(services, request), request.params.code),
  );

  done();
};
