import {
  chartNoteListSchema,
  createAddendumRequestSchema,
  noteEnvelopeSchema,
  reportVitalsRequestSchema,
  saveNoteRequestSchema,
  setNoteDiagnosesRequestSchema,
  signNoteRequestSchema,
  visitNoteSchema,
  vitalsResponseSchema,
} from '@telemedicina/shared/notes';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../http/error-responses.js';
import { contextFor } from '../../http/service-context.js';
import type { AppServices } from '../context.js';
import type { FileStorage } from '../files/file-storage.js';
import { createNote, saveNote, setNoteDiagnoses } from './note-draft.service.js';
import { getNoteEnvelope, listPatientNotes } from './note-reading.service.js';
import { addAddendum, signNote } from './note-signing.service.js';
import { getVitals, reportVitals } from './vitals.service.js';

const appointmentParams = z.object({ appointmentId: z.string().max(64) });
const patientParams = z.object({ patientId: z.string().max(64) });
const readErrors = errorResponses(400, 401, 403, 404);
const writeErrors = errorResponses(400, 401, 403, 404, 409);

/**
 * Clinical readers: the patient (their own visits; signed notes only) and doctors (the visit's, or
 * one treating the patient; the policy answers 404 otherwise). Reception and administrators hold
 * neither permission: 403 before anything is looked up, so nothing about the visit is revealed.
 */
const clinicalReaders = { anyOf: ['records.read.own', 'records.read'] } as const;
/** Writers of notes and addenda: doctors (the policy narrows to the visit's doctor or a treating one). */
const noteWriters = { anyOf: ['records.write'] } as const;
/**
 * Vitals are reported by the appointment's patient; doctors pass the declaration so that one
 * without a relationship gets the same 404 as everywhere else (the visit's doctor gets 403).
 */
const vitalsReporters = { anyOf: ['records.read.own', 'records.read'] } as const;

/** Visit notes (SOAP, diagnoses, signing, addenda), patient-reported vitals, and a chart's notes. */
export const notesRoutes: FastifyPluginCallbackZod<{ services: AppServices; storage: FileStorage }> = (
  app,
  { services, storage },
  done,
) => {
  app.get(
    '/appointments/:appointmentId/note',
    {
      config: { access: clinicalReaders },
      schema: {
        tags: ['records'],
        summary: "The visit's note (patients: only once signed) and the vitals the patient reported",
        params: appointmentParams,
        response: { 200: noteEnvelopeSchema, ...readErrors },
      },
    },
    async (request) => getNoteEnvelope(contextFor(services, request), request.params.appointmentId),
  );

  app.post(
    '/appointments/:appointmentId/note',
    {
      config: { access: noteWriters },
      schema: {
        tags: ['records'],
        summary: "Start the visit's note (the visit's doctor); answers the existing note when there is one",
        params: appointmentParams,
        response: { 200: visitNoteSchema, 201: visitNoteSchema, ...writeErrors },
      },
    },
    async (request, reply) => {
      const { note, created } = await createNote(contextFor(services, request), request.params.appointmentId);
      return reply.status(created ? 201 : 200).send(note);
    },
  );

  app.patch(
    '/appointments/:appointmentId/note',
    {
      config: { access: noteWriters },
      schema: {
        tags: ['records'],
        summary: 'Autosave changed sections of the draft (sanitized; optimistic concurrency on baseVersion)',
        params: appointmentParams,
        body: saveNoteRequestSchema,
        response: { 200: visitNoteSchema, ...writeErrors },
      },
    },
    async (request) => saveNote(contextFor(services, request), request.params.appointmentId, request.body),
  );

  app.put(
    '/appointments/:appointmentId/note/diagnoses',
    {
      config: { access: noteWriters },
      schema: {
        tags: ['records'],
        summary: "Replace the draft's diagnoses (codes of the catalogue, in order, at most one primary)",
        params: appointmentParams,
        body: setNoteDiagnosesRequestSchema,
        response: { 200: visitNoteSchema, ...writeErrors },
      },
    },
    async (request) =>
      setNoteDiagnoses(contextFor(services, request), request.params.appointmentId, request.body),
  );

  app.post(
    '/appointments/:appointmentId/note/sign',
    {
      config: { access: noteWriters },
      schema: {
        tags: ['records'],
        summary: 'Sign the note: locked from then on; the summary PDF goes to the chart and to the patient',
        params: appointmentParams,
        body: signNoteRequestSchema,
        response: { 200: visitNoteSchema, ...errorResponses(400, 401, 403, 404, 409, 422) },
      },
    },
    async (request) =>
      signNote(contextFor(services, request), storage, request.params.appointmentId, request.body),
  );

  app.post(
    '/appointments/:appointmentId/note/addenda',
    {
      config: { access: noteWriters },
      schema: {
        tags: ['records'],
        summary: 'Add a signed, dated addendum to a signed note (its doctor or a treating doctor)',
        params: appointmentParams,
        body: createAddendumRequestSchema,
        response: { 201: visitNoteSchema, ...writeErrors },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await addAddendum(contextFor(services, request), request.params.appointmentId, request.body)),
  );

  app.get(
    '/appointments/:appointmentId/vitals',
    {
      config: { access: clinicalReaders },
      schema: {
        tags: ['records'],
        summary: 'The vitals the patient reported for the visit (null until they report)',
        params: appointmentParams,
        response: { 200: vitalsResponseSchema, ...readErrors },
      },
    },
    async (request) => getVitals(contextFor(services, request), request.params.appointmentId),
  );

  app.put(
    '/appointments/:appointmentId/vitals',
    {
      config: { access: vitalsReporters },
      schema: {
        tags: ['records'],
        summary: 'The patient reports vitals for the visit (replaces the report; until the note is signed)',
        params: appointmentParams,
        body: reportVitalsRequestSchema,
        response: { 200: vitalsResponseSchema, ...writeErrors },
      },
    },
    async (request) =>
      reportVitals(contextFor(services, request), request.params.appointmentId, request.body),
  );

  app.get(
    '/patients/:patientId/notes',
    {
      config: { access: clinicalReaders },
      schema: {
        tags: ['records'],
        summary: "A chart's visit notes, newest visit first (patients: their signed notes)",
        params: patientParams,
        response: { 200: chartNoteListSchema, ...readErrors },
      },
    },
    async (request) => listPatientNotes(contextFor(services, request), request.params.patientId),
  );

  done();
};
