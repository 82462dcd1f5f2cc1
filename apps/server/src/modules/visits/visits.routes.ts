import multipart from '@fastify/multipart';
import { errorResponseSchema } from '@telemedicina/shared/api';
import {
  admitRequestSchema,
  chatHistoryQuerySchema,
  chatHistorySchema,
  chatMessageSchema,
  createGuestInviteRequestSchema,
  deviceCheckResultSchema,
  deviceCheckSchema,
  guestInviteListSchema,
  guestInviteSchema,
  guestSessionCookieName,
  redeemGuestInviteRequestSchema,
  redeemGuestInviteResponseSchema,
  runningLateRequestSchema,
  visitFileFieldName,
  visitStateSchema,
  waitingRoomSchema,
} from '@telemedicina/shared/visits';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isSecureRequest, putCookie, readCookie } from '../../http/cookies.js';
import { errorResponses } from '../../http/error-responses.js';
import { rateLimits } from '../../http/rate-limits.js';
import { appError } from '../../lib/app-error.js';
import { loadUploadLimits } from '../settings/settings.service.js';
import { visitContextFor, type VisitContext, type VisitDependencies } from './visit-context.js';
import { readVisitFile, shareVisitFile } from './visit-files.service.js';
import {
  inviteGuest,
  listGuests,
  redeemGuestInvite,
  resolveGuestSession,
  revokeGuest,
} from './visit-guests.service.js';
import { admitToVisit, announceRunningLate, checkIn, endVisit } from './visit-admission.service.js';
import { getChatHistory } from './visit-chat.service.js';
import { storeDeviceCheck } from './visit-device-check.service.js';
import { getVisitState } from './visit-state.service.js';
import { getWaitingRoom } from './visit-waiting-room.service.js';

const errors = errorResponses(400, 401, 403, 404, 409);
const gone = { 410: errorResponseSchema };
const visitParams = z.object({ appointmentId: z.string().max(64) });
const noContent = z.null();

/** Participants (doctor, patient) and staff who see every appointment. */
const readVisit = { anyOf: ['visits.join', 'visits.host', 'appointments.read.any'] } as const;
const participate = { anyOf: ['visits.join', 'visits.host'] } as const;
const host = { anyOf: ['visits.host'] } as const;
const invite = { anyOf: ['visits.invite'] } as const;

/** Largest upload the multipart parser reads at all; the clinic's own (lower) limit is applied per request. */
const maxUploadBytes = 100 * 1024 * 1024;

/**
 * Video visits: state, device check, check-in, admission, end, running
 * late, the doctor's waiting room, chat history and files, guests.
 */
export const visitsRoutes: FastifyPluginAsyncZod<{ deps: VisitDependencies }> = async (app, { deps }) => {
  await app.register(multipart, {
    limits: { fileSize: maxUploadBytes, files: 1, fields: 5, parts: 6, headerPairs: 50 },
  });
  const contextOf = (request: FastifyRequest): VisitContext => visitContextFor(deps, request);

  app.get(
    '/visits/:appointmentId',
    {
      config: { access: readVisit },
      schema: {
        tags: ['visits'],
        summary: "The caller's view of a video visit (doctor, patient, or staff); others 404",
        params: visitParams,
        response: { 200: visitStateSchema, ...errors },
      },
    },
    async (request) => getVisitState(contextOf(request), request.params.appointmentId),
  );

  app.put(
    '/visits/:appointmentId/device-check',
    {
      config: { access: participate },
      schema: {
        tags: ['visits'],
        summary:
          "Store the patient's pre-call check (the risk staff see); the doctor's is answered, not stored",
        params: visitParams,
        body: deviceCheckResultSchema,
        response: { 200: deviceCheckSchema, ...errors },
      },
    },
    async (request) => storeDeviceCheck(contextOf(request), request.params.appointmentId, request.body),
  );

  app.post(
    '/visits/:appointmentId/check-in',
    {
      config: { access: participate },
      schema: {
        tags: ['visits'],
        summary: 'The patient checks in (from 15 min before the start; 409 VISIT_NOT_OPEN / VISIT_ENDED)',
        params: visitParams,
        response: { 200: visitStateSchema, ...errors },
      },
    },
    async (request) => checkIn(contextOf(request), request.params.appointmentId),
  );

  app.post(
    '/visits/:appointmentId/admit',
    {
      config: { access: host },
      schema: {
        tags: ['visits'],
        summary: 'The doctor admits the checked-in patient or a waiting guest (409 VISIT_FULL past four)',
        params: visitParams,
        body: admitRequestSchema.optional(),
        response: { 200: visitStateSchema, ...errors },
      },
    },
    async (request) =>
      admitToVisit(contextOf(request), request.params.appointmentId, request.body?.participantKey),
  );

  app.post(
    '/visits/:appointmentId/end',
    {
      config: { access: host },
      schema: {
        tags: ['visits'],
        summary: 'The doctor ends the visit (completed, end time stored); everyone leaves the call',
        params: visitParams,
        response: { 200: visitStateSchema, ...errors },
      },
    },
    async (request) => endVisit(contextOf(request), request.params.appointmentId),
  );

  app.post(
    '/visits/:appointmentId/running-late',
    {
      config: { access: host },
      schema: {
        tags: ['visits'],
        summary: "The doctor announces a delay (minutes; 0 or null clears it) for the day's waiting patients",
        params: visitParams,
        body: runningLateRequestSchema,
        response: { 200: visitStateSchema, ...errors },
      },
    },
    async (request) =>
      announceRunningLate(contextOf(request), request.params.appointmentId, request.body.minutes),
  );

  app.get(
    '/doctors/:doctorId/waiting-room',
    {
      config: { access: { anyOf: ['visits.host', 'appointments.read.any'] } },
      schema: {
        tags: ['visits'],
        summary: "Today's queue of a doctor (the doctor themself, or staff): device checks, who is online",
        params: z.object({ doctorId: z.string().max(64) }),
        response: { 200: waitingRoomSchema, ...errors },
      },
    },
    async (request) => getWaitingRoom(contextOf(request), request.params.doctorId),
  );

  app.get(
    '/visits/:appointmentId/messages',
    {
      config: { access: participate },
      schema: {
        tags: ['visits'],
        summary: 'Chat messages after a sequence number (the doctor and the patient; kept after the visit)',
        params: visitParams,
        querystring: chatHistoryQuerySchema,
        response: { 200: chatHistorySchema, ...errors },
      },
    },
    async (request) => getChatHistory(contextOf(request), request.params.appointmentId, request.query),
  );

  app.post(
    '/visits/:appointmentId/files',
    {
      config: { access: participate },
      schema: {
        tags: ['visits'],
        summary:
          'Share a file in the chat (multipart: optional field `clientId` first, then `file`; limits and kinds from the upload settings)',
        params: visitParams,
        consumes: ['multipart/form-data'],
        response: {
          201: chatMessageSchema,
          200: chatMessageSchema,
          ...errorResponses(400, 401, 403, 404, 409, 413, 415),
        },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart()) {
        throw appError(
          'UNSUPPORTED_MEDIA_TYPE',
          `Send the file as multipart/form-data in the field "${visitFileFieldName}".`,
        );
      }
      const limits = await loadUploadLimits(deps.db);
      const part = await request.file({ limits: { fileSize: limits.maxFileSizeBytes } });
      if (part?.fieldname !== visitFileFieldName) {
        throw appError('VALIDATION_FAILED', 'Send the file in the field "file".', {
          issues: [
            {
              location: 'body',
              path: visitFileFieldName,
              code: 'required',
              message: 'validation.required',
            },
          ],
        });
      }
      // Throws 413 (FST_REQ_FILE_TOO_LARGE) past the limit without buffering the rest.
      const bytes = await part.toBuffer();
      const clientIdField = part.fields.clientId;
      const clientId =
        clientIdField !== undefined && !Array.isArray(clientIdField) && clientIdField.type === 'field'
          ? String(clientIdField.value)
          : undefined;
      const message = await shareVisitFile(contextOf(request), request.params.appointmentId, {
        bytes,
        fileName: part.filename,
        clientId,
      });
      return reply.status(201).send(message);
    },
  );

  app.get(
    '/visits/:appointmentId/files/:fileId',
    {
      // The visit's participants, guests included (their `tm_guest` cookie); checked by the service.
      config: { access: 'public' },
      schema: {
        tags: ['visits'],
        summary: "A file shared in a visit's chat, for its participants (guests too); otherwise 404",
        params: z.object({ appointmentId: z.string().max(64), fileId: z.string().max(64) }),
      },
    },
    async (request, reply) => {
      const ctx = await contextWithGuest(deps, request);
      const file = await readVisitFile(ctx, request.params.appointmentId, request.params.fileId);
      return reply
        .header('content-type', file.contentType)
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .header('content-disposition', contentDisposition(file.fileName))
        .send(file.bytes);
    },
  );

  app.post(
    '/visits/:appointmentId/guests',
    {
      config: { access: invite },
      schema: {
        tags: ['visits'],
        summary:
          'Invite an interpreter or companion: a single-use, expiring link (the doctor or the patient)',
        params: visitParams,
        body: createGuestInviteRequestSchema,
        response: { 201: guestInviteSchema, ...errors },
      },
    },
    async (request, reply) => {
      const origin = deps.config.appOrigins[0] ?? `${request.protocol}://${request.host}`;
      const created = await inviteGuest(
        contextOf(request),
        request.params.appointmentId,
        request.body,
        origin,
      );
      return reply.status(201).send(created);
    },
  );

  app.get(
    '/visits/:appointmentId/guests',
    {
      config: { access: invite },
      schema: {
        tags: ['visits'],
        summary: "A visit's guest invitations (the doctor or the patient)",
        params: visitParams,
        response: { 200: guestInviteListSchema, ...errors },
      },
    },
    async (request) => ({ data: await listGuests(contextOf(request), request.params.appointmentId) }),
  );

  app.delete(
    '/visits/:appointmentId/guests/:guestId',
    {
      config: { access: invite },
      schema: {
        tags: ['visits'],
        summary: 'Revoke a guest invitation; the guest is disconnected',
        params: z.object({ appointmentId: z.string().max(64), guestId: z.string().max(64) }),
        response: { 204: noContent, ...errors },
      },
    },
    async (request, reply) => {
      await revokeGuest(contextOf(request), request.params.appointmentId, request.params.guestId);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/visit-guests/current',
    {
      // The guest's own visit through the `tm_guest` cookie; without a live one, 404.
      config: { access: 'public' },
      schema: {
        tags: ['visits'],
        summary: "A redeemed guest's view of their visit (tm_guest cookie); 404 without a live guest session",
        response: { 200: visitStateSchema, ...errors },
      },
    },
    async (request, reply) => {
      const ctx = await contextWithGuest(deps, request);
      const caller = ctx.caller;
      if (caller?.kind !== 'guest') {
        throw appError('NOT_FOUND', 'No guest session.');
      }
      void reply.header('cache-control', 'no-store');
      return getVisitState(ctx, caller.appointmentId);
    },
  );

  app.post(
    '/visit-guests/redeem',
    {
      config: { access: 'public', rateLimit: rateLimits.tokenLookup },
      schema: {
        tags: ['visits'],
        summary:
          'Redeem a guest link once (sets the tm_guest cookie); 410 GUEST_LINK_USED / GUEST_LINK_EXPIRED',
        body: redeemGuestInviteRequestSchema,
        response: { 200: redeemGuestInviteResponseSchema, ...errors, ...gone, ...errorResponses(429) },
      },
    },
    async (request, reply) => {
      const ctx = contextOf(request);
      const { response, sessionToken, expiresAt } = await redeemGuestInvite(ctx, request.body.token);
      const maxAge = Math.max(0, Math.round((expiresAt.getTime() - ctx.now().getTime()) / 1000));
      const isSecure = isSecureRequest(request, deps.config.publicOrigin);
      putCookie(
        reply,
        guestSessionCookieName,
        `${guestSessionCookieName}=${sessionToken}; Path=/; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${isSecure ? '; Secure' : ''}`,
      );
      void reply.header('cache-control', 'no-store');
      return response;
    },
  );
};

/** A signed-in user is the caller; otherwise a live `tm_guest` cookie makes the guest the caller. */
async function contextWithGuest(deps: VisitDependencies, request: FastifyRequest): Promise<VisitContext> {
  const ctx = visitContextFor(deps, request);
  if (ctx.caller !== null) {
    return ctx;
  }
  const token = readCookie(request.headers.cookie, guestSessionCookieName);
  const guest = token === null || token === '' ? null : await resolveGuestSession(deps, token);
  return guest === null
    ? ctx
    : { ...ctx, caller: { kind: 'guest', guestId: guest.id, appointmentId: guest.appointmentId } };
}

/** `attachment` with the label as an RFC 6266 / 5987 file name (ASCII fallback plus UTF-8). */
function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
