import {
  doctorDirectoryPageSchema,
  doctorDirectoryQuerySchema,
  doctorProfileSchema,
  replaceDoctorSpecialtiesRequestSchema,
  updateDoctorProfileRequestSchema,
} from '@telemedicina/shared/doctors';
import { errorResponses } from '../../http/error-responses.js';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contextFor } from '../../http/service-context.js';
import type { AppServices } from '../context.js';
import { presentDirectoryEntry, presentDoctorProfile } from './doctors.presenter.js';
import {
  getDoctorProfile,
  listDoctorDirectory,
  replaceDoctorSpecialtiesOf,
  updateDoctorProfile,
} from './doctors.service.js';

const errors = errorResponses(400, 401, 403, 404, 409);
const doctorParams = z.object({ id: z.string().max(64) });
const readDoctors = { anyOf: ['doctors.read'] } as const;
/** The route lets either in; the service allows `doctors.profile.own` only on the doctor's own profile. */
const editDoctors = { anyOf: ['doctors.manage', 'doctors.profile.own'] } as const;

/** The doctors directory and doctor profiles. */
export const doctorsRoutes: FastifyPluginCallbackZod<{ services: AppServices }> = (
  app,
  { services },
  done,
) => {
  app.get(
    '/doctors',
    {
      config: { access: readDoctors },
      schema: {
        tags: ['doctors'],
        summary:
          'The doctors directory: q on the name (accents ignored), filters, sort name|nextAvailable; each with up to 3 free slots in the next 14 days',
        querystring: doctorDirectoryQuerySchema,
        response: { 200: doctorDirectoryPageSchema, ...errors },
      },
    },
    async (request) => {
      const { entries, total } = await listDoctorDirectory(contextFor(services, request), request.query);
      return {
        data: entries.map(presentDirectoryEntry),
        page: request.query.page,
        pageSize: request.query.pageSize,
        total,
      };
    },
  );

  app.get(
    '/doctors/:id',
    {
      config: { access: readDoctors },
      schema: {
        tags: ['doctors'],
        summary: "A doctor's profile (404 for users who are not doctors or have no profile)",
        params: doctorParams,
        response: { 200: doctorProfileSchema, ...errors },
      },
    },
    async (request) =>
      presentDoctorProfile(await getDoctorProfile(contextFor(services, request), request.params.id)),
  );

  app.patch(
    '/doctors/:id',
    {
      config: { access: editDoctors },
      schema: {
        tags: ['doctors'],
        summary:
          "Edit a doctor's profile (own with doctors.profile.own, any with doctors.manage; the first admin edit creates it, licenseNumber required)",
        params: doctorParams,
        body: updateDoctorProfileRequestSchema,
        response: { 200: doctorProfileSchema, ...errors },
      },
    },
    async (request) =>
      presentDoctorProfile(
        await updateDoctorProfile(contextFor(services, request), request.params.id, request.body),
      ),
  );

  app.put(
    '/doctors/:id/specialties',
    {
      config: { access: editDoctors },
      schema: {
        tags: ['doctors'],
        summary: "Replace a doctor's specialties (active ones only)",
        params: doctorParams,
        body: replaceDoctorSpecialtiesRequestSchema,
        response: { 200: doctorProfileSchema, ...errors },
      },
    },
    async (request) =>
      presentDoctorProfile(
        await replaceDoctorSpecialtiesOf(
          contextFor(services, request),
          request.params.id,
          request.body.specialtyIds,
        ),
      ),
  );

  done();
};
