import { Readable } from 'node:stream';
import {
  adminUpdateUserRequestSchema,
  adminUserListQuerySchema,
  adminUserPageSchema,
  adminUserSchema,
  type AdminUser,
} from '@telemedicina/shared/admin';
import {
  createInvitationRequestSchema,
  invitationCreatedResponseSchema,
  setUserRolesRequestSchema,
} from '@telemedicina/shared/auth';
import type { FastifyReply } from 'fastify';
import { errorResponses } from '../../http/error-responses.js';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contextFor } from '../../http/service-context.js';
import { applySessionCookie } from '../../http/session-cookie.js';
import type { AppServices } from '../context.js';
import { presentAdminUser } from './users.presenter.js';
import { exportAdminUsers, listAdminUsers } from './users-list.service.js';
import {
  disableUser,
  enableUser,
  getAdminUser,
  inviteUser,
  resetUserMfa,
  setUserRoles,
  unlockUser,
  updateUserByAdmin,
  type AdminUserView,
} from './users.service.js';

const errors = errorResponses(400, 401, 403, 404, 409);
/** 204: no body. */
const noContent = z.null();
const userParams = z.object({ id: z.string().max(64) });

const readUsers = { anyOf: ['users.read', 'users.manage'] } as const;
const manageUsers = { anyOf: ['users.manage'] } as const;

function present({ user, extras }: AdminUserView): AdminUser {
  return presentAdminUser(user, extras);
}

/**
 * Administration of accounts: the list and its CSV export, one user,
 * editing, disabling and enabling, second-factor reset, invitations,
 * unlocking, roles.
 */
export const usersRoutes: FastifyPluginCallbackZod<{ services: AppServices }> = (app, { services }, done) => {
  app.get(
    '/users',
    {
      config: { access: readUsers },
      schema: {
        tags: ['users'],
        summary: 'Users, filtered (q on name or email, role, status), sorted and paged',
        querystring: adminUserListQuerySchema,
        response: { 200: adminUserPageSchema, ...errors },
      },
    },
    async (request) => {
      const { rows, extras, total } = await listAdminUsers(contextFor(services, request), request.query);
      return {
        data: rows.map((user) => presentAdminUser(user, extras)),
        page: request.query.page,
        pageSize: request.query.pageSize,
        total,
      };
    },
  );

  app.get(
    '/users/export.csv',
    {
      config: { access: readUsers },
      schema: {
        tags: ['users'],
        summary:
          "The users matching the list's filters as CSV (page and pageSize ignored), in the requester's language",
        querystring: adminUserListQuerySchema,
        response: {
          200: {
            description: 'UTF-8 CSV with a byte order mark; streamed',
            content: { 'text/csv': { schema: z.string() } },
          },
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const { filename, chunks } = await exportAdminUsers(contextFor(services, request), request.query);
      void reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .header('cache-control', 'no-store');
      // A stream bypasses the response serializer; the schema above only documents the body.
      return (reply as FastifyReply).send(Readable.from(chunks));
    },
  );

  app.get(
    '/users/:id',
    {
      config: { access: readUsers },
      schema: {
        tags: ['users'],
        summary: 'One user with roles, lockout, last sign-in and disabling',
        params: userParams,
        response: { 200: adminUserSchema, ...errors },
      },
    },
    async (request) => present(await getAdminUser(contextFor(services, request), request.params.id)),
  );

  app.patch(
    '/users/:id',
    {
      config: { access: manageUsers },
      schema: {
        tags: ['users'],
        summary: "Change a user's name, phone, language or time zone",
        params: userParams,
        body: adminUpdateUserRequestSchema,
        response: { 200: adminUserSchema, ...errors },
      },
    },
    async (request) =>
      present(await updateUserByAdmin(contextFor(services, request), request.params.id, request.body)),
  );

  app.post(
    '/users/:id/disable',
    {
      config: { access: manageUsers },
      schema: {
        tags: ['users'],
        summary: 'Disable an account and end its sessions at once (409 CANNOT_CHANGE_SELF, LAST_ADMIN)',
        params: userParams,
        response: { 204: noContent, ...errors },
      },
    },
    async (request, reply) => {
      await disableUser(contextFor(services, request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/users/:id/enable',
    {
      config: { access: manageUsers },
      schema: {
        tags: ['users'],
        summary: 'Enable a disabled account again',
        params: userParams,
        response: { 204: noContent, ...errors },
      },
    },
    async (request, reply) => {
      await enableUser(contextFor(services, request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/users/:id/mfa/reset',
    {
      config: { access: manageUsers },
      schema: {
        tags: ['users'],
        summary: "Remove a user's second factor and end their sessions (409 CANNOT_CHANGE_SELF)",
        params: userParams,
        response: { 204: noContent, ...errors },
      },
    },
    async (request, reply) => {
      await resetUserMfa(contextFor(services, request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/invitations',
    {
      config: { access: manageUsers },
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
      config: { access: manageUsers },
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
      config: { access: manageUsers },
      schema: {
        tags: ['users'],
        summary: "Replace a user's roles (ends their sessions; 409 LAST_ADMIN, CANNOT_CHANGE_SELF)",
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
