import {
  availabilityExceptionListQuerySchema,
  availabilityExceptionListSchema,
  availabilityExceptionSchema,
  availabilityRulesResponseSchema,
  createAvailabilityExceptionRequestSchema,
  replaceAvailabilityRulesRequestSchema,
  slotsQuerySchema,
  slotsResponseSchema,
} from '@telemedicina/shared/booking';
import { errorResponses } from '../../http/error-responses.js';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contextFor } from '../../http/service-context.js';
import type { AppServices } from '../context.js';
import {
  presentAvailabilityException,
  presentAvailabilityRule,
  presentSlot,
} from './availability.presenter.js';
import {
  createAvailabilityException,
  deleteAvailabilityException,
  getAvailabilityRules,
  listAvailabilityExceptions,
  listDoctorSlots,
  replaceAvailabilityRules,
  type AvailabilityRulesView,
} from './availability.service.js';

const errors = errorResponses(400, 401, 403, 404, 409);
const doctorParams = z.object({ id: z.string().max(64) });
const exceptionParams = z.object({ id: z.string().max(64), exceptionId: z.string().max(64) });
const manageAvailability = { anyOf: ['availability.manage.own', 'availability.manage.any'] } as const;

function presentRules(view: AvailabilityRulesView) {
  return {
    doctorId: view.doctor.userId,
    timeZone: view.doctor.timeZone,
    rules: view.rules.map(presentAvailabilityRule),
  };
}

/**
 * A doctor's weekly rules and exceptions (the doctor with
 * `availability.manage.own`, or `availability.manage.any`), and the free
 * slots anyone signed in may see.
 */
export const availabilityRoutes: FastifyPluginCallbackZod<{ services: AppServices }> = (
  app,
  { services },
  done,
) => {
  app.get(
    '/doctors/:id/availability/rules',
    {
      config: { access: manageAvailability },
      schema: {
        tags: ['availability'],
        summary: "A doctor's weekly availability rules (wall-clock times in each rule's zone)",
        params: doctorParams,
        response: { 200: availabilityRulesResponseSchema, ...errors },
      },
    },
    async (request) =>
      presentRules(await getAvailabilityRules(contextFor(services, request), request.params.id)),
  );

  app.put(
    '/doctors/:id/availability/rules',
    {
      config: { access: manageAvailability },
      schema: {
        tags: ['availability'],
        summary:
          "Replace a doctor's weekly rules, in the doctor's current zone (overlapping ranges of one day: 400)",
        params: doctorParams,
        body: replaceAvailabilityRulesRequestSchema,
        response: { 200: availabilityRulesResponseSchema, ...errors },
      },
    },
    async (request) =>
      presentRules(
        await replaceAvailabilityRules(contextFor(services, request), request.params.id, request.body),
      ),
  );

  app.get(
    '/doctors/:id/availability/exceptions',
    {
      config: { access: manageAvailability },
      schema: {
        tags: ['availability'],
        summary: "A doctor's time off and extra hours overlapping [from, to) (either end optional)",
        params: doctorParams,
        querystring: availabilityExceptionListQuerySchema,
        response: { 200: availabilityExceptionListSchema, ...errors },
      },
    },
    async (request) => ({
      data: (
        await listAvailabilityExceptions(contextFor(services, request), request.params.id, request.query)
      ).map(presentAvailabilityException),
    }),
  );

  app.post(
    '/doctors/:id/availability/exceptions',
    {
      config: { access: manageAvailability },
      schema: {
        tags: ['availability'],
        summary: 'Add time off (removes slots) or extra hours (adds slots)',
        params: doctorParams,
        body: createAvailabilityExceptionRequestSchema,
        response: { 201: availabilityExceptionSchema, ...errors },
      },
    },
    async (request, reply) => {
      const created = await createAvailabilityException(
        contextFor(services, request),
        request.params.id,
        request.body,
      );
      return reply.status(201).send(presentAvailabilityException(created));
    },
  );

  app.delete(
    '/doctors/:id/availability/exceptions/:exceptionId',
    {
      config: { access: manageAvailability },
      schema: {
        tags: ['availability'],
        summary: 'Remove one exception',
        params: exceptionParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await deleteAvailabilityException(
        contextFor(services, request),
        request.params.id,
        request.params.exceptionId,
      );
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/doctors/:id/slots',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['availability'],
        summary:
          "Free slots starting in [from, to) (≤ 31 days), as instants labelled in tz (else the viewer's zone) and the doctor's zone",
        params: doctorParams,
        querystring: slotsQuerySchema,
        response: { 200: slotsResponseSchema, ...errors },
      },
    },
    async (request) => {
      const view = await listDoctorSlots(contextFor(services, request), request.params.id, request.query);
      return {
        doctorId: view.doctor.userId,
        doctorTimeZone: view.doctor.timeZone,
        viewerTimeZone: view.viewerTimeZone,
        visitMinutes: view.doctor.visitMinutes,
        slots: view.slots.map((slot) => presentSlot(slot, view.viewerTimeZone, view.doctor.timeZone)),
      };
    },
  );

  done();
};
