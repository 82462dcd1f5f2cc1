import {
  createRoleRequestSchema,
  roleListQuerySchema,
  rolePageSchema,
  roleSchema,
  updateRoleRequestSchema,
} from '@telemedicina/shared/admin';
import { errorResponses } from '../../http/error-responses.js';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contextFor } from '../../http/service-context.js';
import type { AppServices } from '../context.js';
import { presentRoleWithGrants } from './roles.presenter.js';
import { createRole, deleteRole, getRole, listRoles, updateRole } from './roles.service.js';

const errors = errorResponses(400, 401, 403, 404, 409);
const noContent = z.null();
const roleParams = z.object({ id: z.string().max(64) });

/** The users screen needs the list of roles too (to filter and assign), not only role managers. */
const readRoles = { anyOf: ['roles.manage', 'users.read', 'users.manage'] } as const;
const manageRoles = { anyOf: ['roles.manage'] } as const;

/** Roles and their grants from the permission catalogue. */
export const rolesRoutes: FastifyPluginCallbackZod<{ services: AppServices }> = (app, { services }, done) => {
  app.get(
    '/roles',
    {
      config: { access: readRoles },
      schema: {
        tags: ['roles'],
        summary: 'Roles with their permissions and how many users hold each (q on key or either name)',
        querystring: roleListQuerySchema,
        response: { 200: rolePageSchema, ...errors },
      },
    },
    async (request) => {
      const { rows, total } = await listRoles(contextFor(services, request), request.query);
      return {
        data: rows.map(presentRoleWithGrants),
        page: request.query.page,
        pageSize: request.query.pageSize,
        total,
      };
    },
  );

  app.get(
    '/roles/:id',
    {
      config: { access: readRoles },
      schema: {
        tags: ['roles'],
        summary: 'One role with its permissions',
        params: roleParams,
        response: { 200: roleSchema, ...errors },
      },
    },
    async (request) => presentRoleWithGrants(await getRole(contextFor(services, request), request.params.id)),
  );

  app.post(
    '/roles',
    {
      config: { access: manageRoles },
      schema: {
        tags: ['roles'],
        summary:
          'Create a role (409 ALREADY_EXISTS for a key in use; 400 for a permission outside the catalogue)',
        body: createRoleRequestSchema,
        response: { 201: roleSchema, ...errors },
      },
    },
    async (request, reply) => {
      const role = await createRole(contextFor(services, request), request.body);
      return reply.status(201).send(presentRoleWithGrants(role));
    },
  );

  app.patch(
    '/roles/:id',
    {
      config: { access: manageRoles },
      schema: {
        tags: ['roles'],
        summary:
          "Rename a role or replace its permissions (system roles' names and the admin role's permissions: 409 SYSTEM_ROLE_LOCKED)",
        params: roleParams,
        body: updateRoleRequestSchema,
        response: { 200: roleSchema, ...errors },
      },
    },
    async (request) =>
      presentRoleWithGrants(await updateRole(contextFor(services, request), request.params.id, request.body)),
  );

  app.delete(
    '/roles/:id',
    {
      config: { access: manageRoles },
      schema: {
        tags: ['roles'],
        summary: 'Delete a custom role nobody holds (409 SYSTEM_ROLE_LOCKED, ROLE_IN_USE)',
        params: roleParams,
        response: { 204: noContent, ...errors },
      },
    },
    async (request, reply) => {
      await deleteRole(contextFor(services, request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  done();
};
