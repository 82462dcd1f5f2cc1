import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { VisitNote } from '@telemedicina/shared/notes';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { createClock } from '../../test/booking-fixtures.js';
import { createAppointment, createUser, send, signIn, type TestUser } from '../../test/factories.js';
import { createTestContext, type TestContext } from '../../test/test-context.js';

/**
 * What the notes test files share: one app per file with a doctor, a colleague treating the same
 * patient, a stranger, staff and two patients, signed-in requests and visits to document.
 * `setUpNotesTests` registers the hooks; `people()` answers the users once they exist.
 */
const clock = createClock('2026-05-04T09:00:00Z');
let context: TestContext;
let doctor: TestUser;
let colleague: TestUser;
let stranger: TestUser;
let staff: TestUser;
let patient: TestUser;
let otherPatient: TestUser;
const sessions = new Map<TestUser, string>();

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export async function as(user: TestUser, method: Method, url: string, body?: unknown) {
  let session = sessions.get(user);
  if (session === undefined) {
    session = (await signIn(context.app, user)).token;
    sessions.set(user, session);
  }
  return send(context.app, method, `/api/v1${url}`, { session, ...(body === undefined ? {} : { body }) });
}

let visitCount = 0;

/** A visit of `doctor` with `patient` (in progress unless told), each in its own hour from June on. */
export async function visit(
  status: 'in_progress' | 'confirmed' | 'cancelled' | 'completed' = 'in_progress',
  startsAt?: string,
) {
  visitCount += 1;
  const row = await createAppointment(context.app, {
    doctorId: doctor.id,
    patientId: patient.id,
    startsAt: startsAt ?? new Date(Date.parse('2026-06-01T00:00:00Z') + visitCount * 3_600_000),
    status,
  });
  return row.id;
}

/** Moves the test clock; sessions are signed in again at the new time (idle timeouts). */
export function moveClock(iso: string): void {
  clock.set(iso);
  sessions.clear();
}

export async function startNote(appointmentId: string): Promise<VisitNote> {
  const response = await as(doctor, 'POST', `/appointments/${appointmentId}/note`);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<VisitNote>();
}

export async function save(appointmentId: string, body: Record<string, unknown>, user = doctor) {
  return as(user, 'PATCH', `/appointments/${appointmentId}/note`, body);
}

export async function storedSummaries(): Promise<string[]> {
  return readdir(path.join(context.config.uploadsDir, 'visit-summaries')).catch(() => []);
}

export function setUpNotesTests(): void {
  beforeAll(async () => {
    context = await createTestContext({ now: clock.now });
    const app = context.app;
    doctor = await createUser(app, { roles: ['doctor'], name: 'Dra. Lucía Ortega', language: 'es' });
    colleague = await createUser(app, { roles: ['doctor'], name: 'Dr. Colega', language: 'es' });
    stranger = await createUser(app, { roles: ['doctor'], name: 'Dr. Ajeno' });
    staff = await createUser(app, { roles: ['staff'] });
    patient = await createUser(app, { roles: ['patient'], name: 'Emma Patient', language: 'en' });
    otherPatient = await createUser(app, { roles: ['patient'], name: 'Otro Paciente' });
    // The colleague treats the patient too (another visit); the stranger never did.
    await createAppointment(app, {
      doctorId: colleague.id,
      patientId: patient.id,
      startsAt: '2026-04-01T10:00:00Z',
      status: 'completed',
    });
    await createAppointment(app, {
      doctorId: doctor.id,
      patientId: otherPatient.id,
      startsAt: '2026-04-02T10:00:00Z',
      status: 'completed',
    });
    await context.db.execute(sql`
    insert into diagnosis_codes (code, chapter, name_es, name_en, search_text) values
      ('I10', 'IX', 'Hipertensión esencial (primaria)', 'Essential (primary) hypertension', 'i10 hipertension'),
      ('J06.9', 'X', 'Infección aguda de las vías respiratorias superiores', 'Acute upper respiratory infection', 'j06.9 infeccion')
    on conflict (code) do nothing`);
    await context.db.execute(sql`
    insert into doctor_profiles (user_id, license_number, languages, visit_minutes)
    values (${doctor.id}, 'MED-28-12345', '{es}', 30)`);
  });

  afterAll(async () => {
    await context?.close();
  });

  beforeEach(() => {
    moveClock('2026-05-04T09:00:00Z');
  });
}

/** The app and the users, once `setUpNotesTests`' first hook has run. */
export function people() {
  return { context, doctor, colleague, stranger, staff, patient, otherPatient };
}
