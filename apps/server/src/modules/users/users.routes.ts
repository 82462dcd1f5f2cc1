import {
  createInvitationRequestSchema,
  errorResponseSchema,
  invitationCreatedResponseSchema,
  setUserRolesRequestSchema,
} from '@telemedicina/shared';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contextFor } from '../../http/service-context.js';
import { applySessionCookie } from '../auth/auth.routes.js';
import type { AppServices } from '../context.js';
import { inviteUser, setUserRoles, unlockUser } from './users.service.js';

const errors = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  403: errorResponseSchema,
  404: errorResponseSchema,
  409: errorResponseSchema,
};
/** 204: no body. */
const noContent = z.null();
const userParams = z.object({ id: z.string().max(64) });

/** Administration of accounts: invitations, unlocking, roles. */
export const usersRoutes: FastifyPluginCallbackZod<{ services: AppServices }> = (app, { services }, done) => {
  app.post(
    '/invitations',
    {
      config: { access: { anyOf: ['users.manage'] } },
      schema: {
        tags: ['users'],
        summary: 'Invite a doctor, staff member or admin by email',
        body: createInvitationRequestSchema,
        response: { 201: invitationCreatedResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const created = await inviteUser(contextFor(services, request), request.body);
      return reply.status(201).send({ id: created.id, expiresAt: created.expiresAt.toISOString() });
    },
  );

  app.post(
    '/users/:id/unlock',
    {
      config: { access: { anyOf: ['users.manage'] } },
      schema: {
        tags: ['users'],
        summary: 'Lift a sign-in lockout',
        params: userParams,
        response: { 204: noContent, ...errors },
      },
    },
    async (request, reply) => {
      await unlockUser(contextFor(services, request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.put(
    '/users/:id/roles',
    {
      config: { access: { anyOf: ['users.manage'] } },
      schema: {
        tags: ['users'],
        summary: "Replace a user's roles (ends their sessions; 409 LAST_ADMIN)",
        params: userParams,
        body: setUserRolesRequestSchema,
        response: { 204: noContent, ...errors },
      },
    },
    async (request, reply) => {
      const { replacement } = await setUserRoles(
        contextFor(services, request),
        request.params.id,
        request.body.roleKeys,
      );
      if (replacement !== null) {
        applySessionCookie(services, request, reply, replacement);
      }
      return reply.status(204).send(null);
    },
  );
  done();
};
