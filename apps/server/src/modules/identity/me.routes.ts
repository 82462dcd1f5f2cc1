import { errorResponses } from '../../http/error-responses.js';
import multipart from '@fastify/multipart';
import { errorResponseSchema } from '@telemedicina/shared/api';
import {
  activeSessionsResponseSchema,
  changePasswordRequestSchema,
  meResponseSchema,
  mfaDisableRequestSchema,
  mfaEnableRequestSchema,
  mfaEnableResponseSchema,
  mfaSetupResponseSchema,
  updateProfileRequestSchema,
} from '@telemedicina/shared/auth';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { appError } from '../../lib/app-error.js';
import { clearSessionCookie, isSecureRequest } from '../../http/cookies.js';
import { rateLimits } from '../../http/rate-limits.js';
import { contextFor } from '../../http/service-context.js';
import { applySessionCookie } from '../../http/session-cookie.js';
import type { AppServices } from '../context.js';
import type { FileStorage } from '../files/file-storage.js';
import {
  changePassword,
  getMe,
  listMySessions,
  revokeMySession,
  revokeOtherSessions,
  updateProfile,
} from './me.service.js';
import { disableMfa, enableMfa, regenerateRecoveryCodes, setUpMfa } from './mfa.service.js';
import { photoLimits, readPhoto, removePhoto, setPhoto } from './photo.service.js';

export interface MeRouteOptions {
  services: AppServices;
  storage: FileStorage;
}

const errors = errorResponses(400, 401, 403, 404, 409, 422, 429);
/** 204: no body. */
const noContent = z.null();

/** `/me/*` (the signed-in user's profile, password, photo, sessions, second factor) and `/users/:id/photo`. */
export const meRoutes: FastifyPluginAsyncZod<MeRouteOptions> = async (app, { services, storage }) => {
  await app.register(multipart, {
    limits: { fileSize: photoLimits.maxBytes, files: 1, fields: 5, parts: 6, headerPairs: 50 },
  });

  app.get(
    '/me',
    {
      config: { access: 'authenticated', allowDuringMfaEnrollment: true },
      schema: {
        tags: ['me'],
        summary: 'The signed-in user, roles, permission names and session',
        response: { 200: meResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      return getMe(contextFor(services, request));
    },
  );

  app.patch(
    '/me',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['me'],
        summary: 'Change name, phone, language or time zone',
        body: updateProfileRequestSchema,
        response: { 200: meResponseSchema, ...errors },
      },
    },
    async (request) => updateProfile(contextFor(services, request), request.body),
  );

  app.post(
    '/me/password',
    {
      config: { access: 'authenticated', rateLimit: rateLimits.perSession },
      schema: {
        tags: ['me'],
        summary: 'Change the password (new session, other sessions ended)',
        body: changePasswordRequestSchema,
        response: { 204: noContent, ...errors },
      },
    },
    async (request, reply) => {
      const started = await changePassword(contextFor(services, request), request.body);
      applySessionCookie(services, request, reply, started);
      return reply.status(204).send(null);
    },
  );

  app.put(
    '/me/photo',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['me'],
        summary:
          'Upload a profile photo (multipart field `file`; PNG, JPEG or WebP by content; ≤ 5 MB; ≤ 4096×4096)',
        consumes: ['multipart/form-data'],
        response: { 200: meResponseSchema, 413: errorResponseSchema, 415: errorResponseSchema, ...errors },
      },
    },
    async (request) => {
      if (!request.isMultipart()) {
        throw appError(
          'UNSUPPORTED_MEDIA_TYPE',
          'Send the photo as multipart/form-data in the field "file".',
        );
      }
      const part = await request.file();
      if (part?.fieldname !== 'file') {
        throw appError('VALIDATION_FAILED', 'Send the photo in the field "file".', {
          issues: [
            {
              location: 'body',
              path: 'file',
              code: 'required',
              message: 'A file in the field "file" is required.',
            },
          ],
        });
      }
      // Throws 413 (FST_REQ_FILE_TOO_LARGE) past the limit without buffering the rest.
      const bytes = await part.toBuffer();
      return setPhoto(contextFor(services, request), storage, bytes);
    },
  );

  app.delete(
    '/me/photo',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['me'],
        summary: 'Remove the profile photo',
        response: { 200: meResponseSchema, ...errors },
      },
    },
    async (request) => removePhoto(contextFor(services, request), storage),
  );

  app.get(
    '/users/:id/photo',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['users'],
        summary: "A user's photo (own, with users.read, or a doctor's); otherwise 404",
        params: z.object({ id: z.string().max(64) }),
      },
    },
    async (request, reply) => {
      const photo = await readPhoto(contextFor(services, request), storage, request.params.id);
      return reply
        .header('content-type', photo.contentType)
        .header('cache-control', 'private, max-age=86400')
        .header('etag', `"${photo.sha256}"`)
        .header('content-disposition', 'inline')
        .send(photo.bytes);
    },
  );

  app.get(
    '/me/sessions',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['me'],
        summary: 'Active sessions of the signed-in user',
        response: { 200: activeSessionsResponseSchema, ...errors },
      },
    },
    async (request) => ({ data: await listMySessions(contextFor(services, request)) }),
  );

  app.delete(
    '/me/sessions/:id',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['me'],
        summary: "End one of one's sessions (another user's: 404)",
        params: z.object({ id: z.string().max(128) }),
        response: { 204: noContent, ...errors },
      },
    },
    async (request, reply) => {
      const { wasCurrent } = await revokeMySession(contextFor(services, request), request.params.id);
      if (wasCurrent) {
        clearSessionCookie(reply, { isSecure: isSecureRequest(request, services.config.publicOrigin) });
      }
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/me/sessions/revoke-others',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['me'],
        summary: 'Sign out every other session',
        response: { 204: noContent, ...errors },
      },
    },
    async (request, reply) => {
      await revokeOtherSessions(contextFor(services, request));
      return reply.status(204).send(null);
    },
  );

  const mfaConfig = {
    access: 'authenticated',
    allowDuringMfaEnrollment: true,
    rateLimit: rateLimits.perSession,
  } as const;

  app.post(
    '/me/mfa/setup',
    {
      config: mfaConfig,
      schema: {
        tags: ['me'],
        summary: 'Start TOTP enrolment: a pending secret as URI, QR code and key',
        response: { 200: mfaSetupResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      return setUpMfa(contextFor(services, request));
    },
  );

  app.post(
    '/me/mfa/enable',
    {
      config: mfaConfig,
      schema: {
        tags: ['me'],
        summary:
          'Confirm enrolment with a code; returns recovery codes once and rotates the session (new cookie)',
        body: mfaEnableRequestSchema,
        response: { 200: mfaEnableResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      const enabled = await enableMfa(contextFor(services, request), request.body.code);
      // A privilege change: the new session's cookie and a fresh XSRF token, as at sign-in.
      applySessionCookie(services, request, reply, enabled.started);
      return { recoveryCodes: enabled.recoveryCodes };
    },
  );

  app.post(
    '/me/mfa/disable',
    {
      config: mfaConfig,
      schema: {
        tags: ['me'],
        summary: 'Turn the second factor off (password and code)',
        body: mfaDisableRequestSchema,
        response: { 204: noContent, ...errors },
      },
    },
    async (request, reply) => {
      await disableMfa(contextFor(services, request), request.body);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/me/mfa/recovery-codes',
    {
      config: mfaConfig,
      schema: {
        tags: ['me'],
        summary: 'Replace the recovery codes (confirmed with a code)',
        body: mfaEnableRequestSchema,
        response: { 200: mfaEnableResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      return regenerateRecoveryCodes(contextFor(services, request), request.body.code);
    },
  );
};
