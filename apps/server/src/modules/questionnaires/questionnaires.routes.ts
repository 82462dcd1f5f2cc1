import {
  archiveQuestionnaireRequestSchema,
  assignQuestionnaireRequestSchema,
  publishQuestionnaireRequestSchema,
  questionnaireDetailSchema,
  questionnaireListSchema,
} from '@telemedicina/shared/questionnaire-builder';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../http/error-responses.js';
import { contextFor } from '../../http/service-context.js';
import type { AppServices } from '../context.js';
import {
  assignBuilderQuestionnaire,
  unassignBuilderQuestionnaire,
} from './questionnaire-assignments.service.js';
import {
  createBuilderQuestionnaire,
  getBuilderQuestionnaire,
  listBuilderQuestionnaires,
  publishBuilderVersion,
  setBuilderArchived,
} from './questionnaire-builder.service.js';

const errors = errorResponses(400, 401, 403, 404, 409, 422);
const idParams = z.object({ id: z.string().max(64) });
const assignmentParams = z.object({ id: z.string().max(64), assignmentId: z.string().max(64) });
/** The clinic (settings.manage) and doctors (their own); the services check which questionnaire. */
const builders = { anyOf: ['settings.manage', 'doctors.profile.own'] } as const;

/** The questionnaire builder (issue 25): the clinic's and doctors' questionnaires, versions, assignments. */
export const questionnairesRoutes: FastifyPluginCallbackZod<{ services: AppServices }> = (
  app,
  { services },
  done,
) => {
  app.get(
    '/questionnaires',
    {
      config: { access: builders },
      schema: {
        tags: ['questionnaires'],
        summary:
          'Questionnaires: every one for the clinic; the shipped instruments and their own for a doctor',
        response: { 200: questionnaireListSchema, ...errors },
      },
    },
    async (request) => ({ data: await listBuilderQuestionnaires(contextFor(services, request)) }),
  );

  app.get(
    '/questionnaires/:id',
    {
      config: { access: builders },
      schema: {
        tags: ['questionnaires'],
        summary: 'One questionnaire with its latest version (FHIR R4 Questionnaire) and assignments',
        params: idParams,
        response: { 200: questionnaireDetailSchema, ...errors },
      },
    },
    async (request) => getBuilderQuestionnaire(contextFor(services, request), request.params.id),
  );

  app.post(
    '/questionnaires',
    {
      config: { access: builders },
      schema: {
        tags: ['questionnaires'],
        summary:
          "Create (version 1): the clinic's, or the doctor's own (422 naming the items that do not fit)",
        body: publishQuestionnaireRequestSchema,
        response: { 201: questionnaireDetailSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await createBuilderQuestionnaire(contextFor(services, request), request.body.questionnaire)),
  );

  app.post(
    '/questionnaires/:id/versions',
    {
      config: { access: builders },
      schema: {
        tags: ['questionnaires'],
        summary: 'Publish a new version (answered versions never change; shipped instruments are read-only)',
        params: idParams,
        body: publishQuestionnaireRequestSchema,
        response: { 201: questionnaireDetailSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await publishBuilderVersion(
            contextFor(services, request),
            request.params.id,
            request.body.questionnaire,
          ),
        ),
  );

  app.patch(
    '/questionnaires/:id',
    {
      config: { access: builders },
      schema: {
        tags: ['questionnaires'],
        summary: 'Archive (no longer sent at booking) or bring back',
        params: idParams,
        body: archiveQuestionnaireRequestSchema,
        response: { 200: questionnaireDetailSchema, ...errors },
      },
    },
    async (request) =>
      setBuilderArchived(contextFor(services, request), request.params.id, request.body.archived),
  );

  app.post(
    '/questionnaires/:id/assignments',
    {
      config: { access: builders },
      schema: {
        tags: ['questionnaires'],
        summary: 'Send it for appointments of a specialty (the clinic) or of a doctor (a doctor: themselves)',
        params: idParams,
        body: assignQuestionnaireRequestSchema,
        response: { 200: questionnaireDetailSchema, ...errors },
      },
    },
    async (request) =>
      assignBuilderQuestionnaire(contextFor(services, request), request.params.id, request.body),
  );

  app.delete(
    '/questionnaires/:id/assignments/:assignmentId',
    {
      config: { access: builders },
      schema: {
        tags: ['questionnaires'],
        summary: 'Stop sending it for that specialty or doctor (forms already sent stay)',
        params: assignmentParams,
        response: { 200: questionnaireDetailSchema, ...errors },
      },
    },
    async (request) =>
      unassignBuilderQuestionnaire(
        contextFor(services, request),
        request.params.id,
        request.params.assignmentId,
      ),
  );

  done();
};
