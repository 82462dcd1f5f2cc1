import {
  noteEnvelopeSchema,
  visitNoteSchema,
  type NoteEnvelope,
  type SaveNoteRequest,
  type SetNoteDiagnosesRequest,
  type VisitNote,
} from '@telemedicina/shared/notes';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';

const notePath = (appointmentId: string) => `/appointments/${encodeURIComponent(appointmentId)}/note`;

/**
 * `GET /appointments/:appointmentId/note` → the note (null until the doctor starts it; patients
 * see it only once signed) and the vitals the patient reported. 404 for anyone else.
 */
export async function getNote(appointmentId: string, signal?: AbortSignal): Promise<NoteEnvelope> {
  const body = await api.get<unknown>(notePath(appointmentId), { signal, alertOnError: false });
  return parseAnswer(noteEnvelopeSchema, body);
}

export const noteQuery = (appointmentId: string) =>
  queryOptions({
    queryKey: queryKeys.appointments.note(appointmentId),
    queryFn: ({ signal }) => getNote(appointmentId, signal),
    retry: false,
    // The editors own the text while they are open: no background refetch replaces it.
    refetchOnWindowFocus: false,
  });

export function useNote(appointmentId: string) {
  return useQuery(noteQuery(appointmentId));
}

/** `POST /appointments/:appointmentId/note`: starts the draft (answers the existing one when there is one). */
export async function createNote(appointmentId: string): Promise<VisitNote> {
  const body = await api.post<unknown>(notePath(appointmentId), undefined, { alertOnError: false });
  return parseAnswer(visitNoteSchema, body);
}

/**
 * `PATCH /appointments/:appointmentId/note`: the changed sections and the version last seen.
 * 409 NOTE_VERSION_CONFLICT (current note in `details.note`) or NOTE_SIGNED.
 */
export async function saveNote(appointmentId: string, request: SaveNoteRequest): Promise<VisitNote> {
  const body = await api.patch<unknown>(notePath(appointmentId), request, {
    alertOnError: false,
    // Autosave every 5 s: the global spinner would flicker over the doctor's typing.
    showSpinner: false,
  });
  return parseAnswer(visitNoteSchema, body);
}

/** `PUT /appointments/:appointmentId/note/diagnoses`: the whole ordered list, at most one primary. */
export async function setNoteDiagnoses(
  appointmentId: string,
  request: SetNoteDiagnosesRequest,
): Promise<VisitNote> {
  const body = await api.put<unknown>(`${notePath(appointmentId)}/diagnoses`, request, {
    alertOnError: false,
    showSpinner: false,
  });
  return parseAnswer(visitNoteSchema, body);
}

/** `POST /appointments/:appointmentId/note/sign`: signs the version the doctor sees and locks the note. */
export async function signNote(appointmentId: string, baseVersion: number): Promise<VisitNote> {
  const body = await api.post<unknown>(
    `${notePath(appointmentId)}/sign`,
    { baseVersion },
    { alertOnError: false },
  );
  return parseAnswer(visitNoteSchema, body);
}

/** `POST /appointments/:appointmentId/note/addenda` (signed notes only) → the note with its new addendum. */
export async function addAddendum(appointmentId: string, html: string): Promise<VisitNote> {
  const body = await api.post<unknown>(
    `${notePath(appointmentId)}/addenda`,
    { body: html },
    { alertOnError: false },
  );
  return parseAnswer(visitNoteSchema, body);
}

/** The current note a 409 NOTE_VERSION_CONFLICT carries in `details.note`, when it is well-formed. */
export function conflictNoteOf(details: unknown): VisitNote | null {
  if (typeof details !== 'object' || details === null) {
    return null;
  }
  const parsed = visitNoteSchema.safeParse((details as { note?: unknown }).note);
  return parsed.success ? parsed.data : null;
}
