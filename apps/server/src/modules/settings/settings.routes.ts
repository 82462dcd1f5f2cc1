import { errorResponses } from '../../http/error-responses.js';
import multipart from '@fastify/multipart';
import { updateClinicSettingsRequestSchema } from '@telemedicina/shared/admin';
import { clinicSettingsSchema } from '@telemedicina/shared/clinic-settings';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contextFor } from '../../http/service-context.js';
import { appError } from '../../lib/app-error.js';
import type { AppServices } from '../context.js';
import type { FileStorage } from '../files/file-storage.js';
import { logoLimits, readClinicLogo, removeClinicLogo, setClinicLogo } from './clinic-logo.service.js';
import { presentClinicSettings } from './settings.presenter.js';
import { getClinicSettings } from './settings.service.js';
import { updateClinicSettings } from './update-clinic-settings.service.js';

export interface SettingsRouteOptions {
  services: AppServices;
  storage: FileStorage;
}

const errors = errorResponses(400, 401, 403, 404, 413, 415, 422);

const manage = { anyOf: ['settings.manage'] } as const;

/** Clinic settings (`settings.manage`) and the public clinic logo. */
export const settingsRoutes: FastifyPluginAsyncZod<SettingsRouteOptions> = async (
  app,
  { services, storage },
) => {
  await app.register(multipart, {
    limits: { fileSize: logoLimits.maxBytes, files: 1, fields: 5, parts: 6, headerPairs: 50 },
  });

  app.get(
    '/settings',
    {
      config: { access: manage },
      schema: {
        tags: ['settings'],
        summary: 'Every clinic setting (stored values over defaults)',
        response: { 200: clinicSettingsSchema, ...errors },
      },
    },
    async (request, reply) => {
      // The answer holds TURN credentials: never kept by a cache.
      void reply.header('cache-control', 'no-store');
      return presentClinicSettings(await getClinicSettings(contextFor(services, request)));
    },
  );

  app.patch(
    '/settings',
    {
      config: { access: manage },
      schema: {
        tags: ['settings'],
        summary: 'Change any complete sections of the settings (audited, one transaction)',
        body: updateClinicSettingsRequestSchema,
        response: { 200: clinicSettingsSchema, ...errors },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      return presentClinicSettings(await updateClinicSettings(contextFor(services, request), request.body));
    },
  );

  app.put(
    '/settings/logo',
    {
      config: { access: manage },
      schema: {
        tags: ['settings'],
        summary:
          'Upload the clinic logo (multipart field `file`; PNG, JPEG or WebP by content; ≤ 2 MB and ≤ the upload limit; ≤ 4096×4096)',
        consumes: ['multipart/form-data'],
        response: { 200: clinicSettingsSchema, ...errors },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart()) {
        throw appError('UNSUPPORTED_MEDIA_TYPE', 'Send the logo as multipart/form-data in the field "file".');
      }
      const part = await request.file();
      if (part?.fieldname !== 'file') {
        throw appError('VALIDATION_FAILED', 'Send the logo in the field "file".', {
          issues: [{ location: 'body', path: 'file', code: 'required', message: 'validation.required' }],
        });
      }
      // Throws 413 (FST_REQ_FILE_TOO_LARGE) past 2 MB without buffering the rest.
      const bytes = await part.toBuffer();
      void reply.header('cache-control', 'no-store');
      return presentClinicSettings(await setClinicLogo(contextFor(services, request), storage, bytes));
    },
  );

  app.delete(
    '/settings/logo',
    {
      config: { access: manage },
      schema: {
        tags: ['settings'],
        summary: 'Remove the clinic logo',
        response: { 200: clinicSettingsSchema, ...errors },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      return presentClinicSettings(await removeClinicLogo(contextFor(services, request), storage));
    },
  );

  app.get(
    '/clinic/logo',
    {
      config: { access: 'public' },
      schema: {
        tags: ['settings'],
        summary: "The clinic's logo (public; 404 when none); `?v=` is the file id, for cache busting",
        querystring: z.object({ v: z.string().max(64).optional() }),
      },
    },
    async (request, reply) => {
      const logo = await readClinicLogo(services, storage);
      const etag = `"${logo.sha256}"`;
      // A URL naming the current file never changes content; any other asks again each time.
      void reply
        .header('etag', etag)
        .header(
          'cache-control',
          request.query.v === logo.fileId ? 'public, max-age=31536000, immutable' : 'public, no-cache',
        )
        .header('x-content-type-options', 'nosniff');
      if (request.headers['if-none-match'] === etag) {
        return reply.status(304).send();
      }
      return reply
        .header('content-type', logo.contentType)
        .header('content-disposition', 'inline')
        .send(logo.bytes);
    },
  );
};
