import { joinWaitlistRequestSchema, waitlistEntrySchema } from '@telemedicina/shared/notifications';
import { errorResponses } from '../../http/error-responses.js';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contextFor } from '../../http/service-context.js';
import type { AppServices } from '../context.js';
import { getMyWaitlistEntry, joinWaitlist, leaveWaitlist } from './waitlist.service.js';

const errors = errorResponses(400, 401, 403, 404);
const doctorParams = z.object({ id: z.string().max(64) });
/** Patients, for themselves. */
const patients = { anyOf: ['appointments.book.self'] } as const;

/** A patient's place on a doctor's waiting list for an earlier slot. */
export const waitlistRoutes: FastifyPluginCallbackZod<{ services: AppServices }> = (
  app,
  { services },
  done,
) => {
  app.get(
    '/doctors/:id/waitlist',
    {
      config: { access: patients },
      schema: {
        tags: ['appointments'],
        summary: 'Own place on the doctor’s waiting list (404 when not on it)',
        params: doctorParams,
        response: { 200: waitlistEntrySchema, ...errors },
      },
    },
    async (request) => getMyWaitlistEntry(contextFor(services, request), request.params.id),
  );

  app.post(
    '/doctors/:id/waitlist',
    {
      config: { access: patients },
      schema: {
        tags: ['appointments'],
        summary:
          'Join (or update) own place on the doctor’s waiting list; told when an earlier slot frees up',
        params: doctorParams,
        body: joinWaitlistRequestSchema,
        response: { 200: waitlistEntrySchema, ...errors },
      },
    },
    async (request) => joinWaitlist(contextFor(services, request), request.params.id, request.body),
  );

  app.delete(
    '/doctors/:id/waitlist',
    {
      config: { access: patients },
      schema: {
        tags: ['appointments'],
        summary: 'Leave the doctor’s waiting list (404 when not on it)',
        params: doctorParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await leaveWaitlist(contextFor(services, request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  done();
};
