import {
  createSpecialtyRequestSchema,
  specialtyListQuerySchema,
  specialtyPageSchema,
  specialtySchema,
  updateSpecialtyRequestSchema,
} from '@telemedicina/shared/admin';
import { errorResponses } from '../../http/error-responses.js';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contextFor } from '../../http/service-context.js';
import type { AppServices } from '../context.js';
import { presentSpecialty } from './specialties.presenter.js';
import { createSpecialty, deleteSpecialty, listSpecialties, updateSpecialty } from './specialties.service.js';

const errors = errorResponses(400, 401, 403, 404, 409);
const noContent = z.null();
const specialtyParams = z.object({ id: z.string().max(64) });
const manageSpecialties = { anyOf: ['specialties.manage'] } as const;

/** The specialties catalogue: read by everyone signed in, changed with `specialties.manage`. */
export const specialtiesRoutes: FastifyPluginCallbackZod<{ services: AppServices }> = (
  app,
  { services },
  done,
) => {
  app.get(
    '/specialties',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['specialties'],
        summary:
          'Specialties with their doctor count (q on either name, accents ignored); inactive ones only for specialties.manage',
        querystring: specialtyListQuerySchema,
        response: { 200: specialtyPageSchema, ...errors },
      },
    },
    async (request) => {
      const { rows, total } = await listSpecialties(contextFor(services, request), request.query);
      return {
        data: rows.map(presentSpecialty),
        page: request.query.page,
        pageSize: request.query.pageSize,
        total,
      };
    },
  );

  app.post(
    '/specialties',
    {
      config: { access: manageSpecialties },
      schema: {
        tags: ['specialties'],
        summary: 'Add a specialty (409 ALREADY_EXISTS when either name is taken, whatever the case)',
        body: createSpecialtyRequestSchema,
        response: { 201: specialtySchema, ...errors },
      },
    },
    async (request, reply) => {
      const specialty = await createSpecialty(contextFor(services, request), request.body);
      return reply.status(201).send(presentSpecialty(specialty));
    },
  );

  app.patch(
    '/specialties/:id',
    {
      config: { access: manageSpecialties },
      schema: {
        tags: ['specialties'],
        summary: 'Rename a specialty or switch it on or off',
        params: specialtyParams,
        body: updateSpecialtyRequestSchema,
        response: { 200: specialtySchema, ...errors },
      },
    },
    async (request) =>
      presentSpecialty(await updateSpecialty(contextFor(services, request), request.params.id, request.body)),
  );

  app.delete(
    '/specialties/:id',
    {
      config: { access: manageSpecialties },
      schema: {
        tags: ['specialties'],
        summary: 'Delete a specialty no doctor has (409 SPECIALTY_IN_USE)',
        params: specialtyParams,
        response: { 204: noContent, ...errors },
      },
    },
    async (request, reply) => {
      await deleteSpecialty(contextFor(services, request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  done();
};
