import { appointmentPageSchema, appointmentSchema } from '@telemedicina/shared/appointment';
import {
  appointmentListQuerySchema,
  bookAppointmentRequestSchema,
  cancelAppointmentRequestSchema,
  changeAppointmentStatusRequestSchema,
  rescheduleAppointmentRequestSchema,
} from '@telemedicina/shared/booking';
import { errorResponses } from '../../http/error-responses.js';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contextFor } from '../../http/service-context.js';
import type { AppServices } from '../context.js';
import { appointmentCalendarFile } from './appointment-calendar.service.js';
import { presentAppointment } from './appointments.presenter.js';
import {
  appointmentReaderOf,
  bookAppointment,
  cancelAppointment,
  changeAppointmentStatus,
  getAppointment,
  listAppointments,
  rescheduleAppointment,
} from './appointments.service.js';

const errors = errorResponses(400, 401, 403, 404, 409);
const calendarErrors = errorResponses(400, 401, 403, 404);
const appointmentParams = z.object({ id: z.string().max(64) });
const book = { anyOf: ['appointments.book.self', 'appointments.book.any'] } as const;
const read = { anyOf: ['appointments.read.own', 'appointments.read.any'] } as const;
/** Patients and doctors (their own, checked by the service) and staff. */
const change = { anyOf: ['appointments.read.own', 'appointments.manage.any'] } as const;

/** Booking, reading and changing appointments. */
export const appointmentsRoutes: FastifyPluginCallbackZod<{ services: AppServices }> = (
  app,
  { services },
  done,
) => {
  app.post(
    '/appointments',
    {
      config: { access: book },
      schema: {
        tags: ['appointments'],
        summary:
          'Book a free slot (patients for themselves; staff with patientId). Lost race: 409 SLOT_TAKEN with details.nextSlots',
        body: bookAppointmentRequestSchema,
        response: { 201: appointmentSchema, ...errors },
      },
    },
    async (request, reply) => {
      const ctx = contextFor(services, request);
      const appointment = await bookAppointment(ctx, request.body);
      return reply.status(201).send(presentAppointment(appointment, await appointmentReaderOf(ctx)));
    },
  );

  app.get(
    '/appointments',
    {
      config: { access: read },
      schema: {
        tags: ['appointments'],
        summary: 'Appointments by start time: own ones, or all with appointments.read.any',
        querystring: appointmentListQuerySchema,
        response: { 200: appointmentPageSchema, ...errors },
      },
    },
    async (request) => {
      const ctx = contextFor(services, request);
      const { rows, total } = await listAppointments(ctx, request.query);
      const reader = await appointmentReaderOf(ctx);
      return {
        data: rows.map((row) => presentAppointment(row, reader)),
        page: request.query.page,
        pageSize: request.query.pageSize,
        total,
      };
    },
  );

  app.get(
    '/appointments/:id',
    {
      config: { access: read },
      schema: {
        tags: ['appointments'],
        summary: 'One appointment (404 when it is not yours to see)',
        params: appointmentParams,
        response: { 200: appointmentSchema, ...errors },
      },
    },
    async (request) => {
      const ctx = contextFor(services, request);
      return presentAppointment(await getAppointment(ctx, request.params.id), await appointmentReaderOf(ctx));
    },
  );

  app.post(
    '/appointments/:id/cancel',
    {
      config: { access: change },
      schema: {
        tags: ['appointments'],
        summary:
          'Cancel: the patient outside the cancellation window (409 CANCELLATION_WINDOW_PASSED), doctor or staff with a reason',
        params: appointmentParams,
        body: cancelAppointmentRequestSchema,
        response: { 200: appointmentSchema, ...errors },
      },
    },
    async (request) => {
      const ctx = contextFor(services, request);
      const appointment = await cancelAppointment(ctx, request.params.id, request.body);
      return presentAppointment(appointment, await appointmentReaderOf(ctx));
    },
  );

  app.post(
    '/appointments/:id/reschedule',
    {
      config: { access: change },
      schema: {
        tags: ['appointments'],
        summary: 'Move to another free slot of the same doctor (booking rules; the window for patients)',
        params: appointmentParams,
        body: rescheduleAppointmentRequestSchema,
        response: { 200: appointmentSchema, ...errors },
      },
    },
    async (request) => {
      const ctx = contextFor(services, request);
      const appointment = await rescheduleAppointment(ctx, request.params.id, request.body);
      return presentAppointment(appointment, await appointmentReaderOf(ctx));
    },
  );

  app.post(
    '/appointments/:id/status',
    {
      config: { access: change },
      schema: {
        tags: ['appointments'],
        summary: 'Doctor or staff: confirm, or mark a no-show (409 INVALID_TRANSITION when not allowed)',
        params: appointmentParams,
        body: changeAppointmentStatusRequestSchema,
        response: { 200: appointmentSchema, ...errors },
      },
    },
    async (request) => {
      const ctx = contextFor(services, request);
      const appointment = await changeAppointmentStatus(ctx, request.params.id, request.body);
      return presentAppointment(appointment, await appointmentReaderOf(ctx));
    },
  );

  app.get(
    '/appointments/:id/calendar.ics',
    {
      config: { access: read },
      schema: {
        tags: ['appointments'],
        summary: "The appointment as an iCalendar file in the requester's language (404 when not yours)",
        params: appointmentParams,
        response: {
          200: {
            description: 'RFC 5545 VCALENDAR with one VEVENT',
            content: { 'text/calendar': { schema: z.string() } },
          },
          ...calendarErrors,
        },
      },
    },
    async (request, reply) => {
      const { filename, body } = await appointmentCalendarFile(
        contextFor(services, request),
        request.params.id,
      );
      return reply
        .header('content-type', 'text/calendar; charset=utf-8')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .header('cache-control', 'no-store')
        .send(body);
    },
  );

  done();
};
