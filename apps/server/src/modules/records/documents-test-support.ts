/** The shared world of the chart document tests: six people, one past visit, and helpers to act as them. */
import path from 'node:path';
import { readdir } from 'node:fs/promises';
import { count } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { chartDocuments, files } from '../../db/schema.js';
import { createClock } from '../../test/booking-fixtures.js';
import { solidPng, tinyPdf, uploadChartDocument, type UploadFile } from '../../test/document-fixtures.js';
import { createAppointment, createUser, send, signIn, type TestUser } from '../../test/factories.js';
import { createTestContext, type TestContext } from '../../test/test-context.js';

export const clock = createClock('2026-05-04T09:00:00Z');
export let context: TestContext;
export let treatingDoctor: TestUser;
export let otherDoctor: TestUser;
export let emergencyDoctor: TestUser;
export let staff: TestUser;
export let patient: TestUser;
export let otherPatient: TestUser;
const sessions = new Map<TestUser, string>();

export async function sessionOf(user: TestUser): Promise<string> {
  const known = sessions.get(user);
  if (known !== undefined) {
    return known;
  }
  const token = (await signIn(context.app, user)).token;
  sessions.set(user, token);
  return token;
}

export async function as(user: TestUser, method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) {
  return send(context.app, method, `/api/v1${url}`, {
    session: await sessionOf(user),
    ...(body === undefined ? {} : { body }),
  });
}

export async function upload(user: TestUser, patientId: string, file: UploadFile | null, fields = {}) {
  return uploadChartDocument(context.app, await sessionOf(user), patientId, file, fields);
}

/** Every file under a folder (relative paths), or nothing when it does not exist. */
export async function listFilesUnder(folder: string): Promise<string[]> {
  try {
    const entries = await readdir(folder, { recursive: true, withFileTypes: true });
    return entries
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)))
      .sort();
  } catch {
    return [];
  }
}

/** What a refused upload must leave unchanged: both tables and every file under the scratch folder. */
export async function storedState() {
  const db = context.db;
  const [fileRows] = await db.select({ n: count() }).from(files);
  const [documentRows] = await db.select({ n: count() }).from(chartDocuments);
  return {
    files: Number(fileRows?.n ?? 0),
    documents: Number(documentRows?.n ?? 0),
    onDisk: await listFilesUnder(context.tempDir),
  };
}

export const pdf = (name = 'informe.pdf'): UploadFile => ({
  name,
  type: 'application/pdf',
  bytes: tinyPdf(name),
});
export const png = (name = 'foto.png'): UploadFile => ({ name, type: 'image/png', bytes: solidPng(4, 3) });
export const exeBytes = Buffer.concat([
  Buffer.from('MZ', 'latin1'),
  Buffer.alloc(58),
  Buffer.from([0x80, 0, 0, 0]),
  Buffer.from('This program cannot be run in DOS mode.\r\n', 'latin1'),
  Buffer.from([0, 0, 0, 0, 0x50, 0x45, 0, 0]),
]);

/** Registers the shared app, people and appointment (one set per test file), and resets the clock and sessions before each test. */
export function setUpChartDocuments(): void {
  beforeAll(async () => {
    context = await createTestContext({ now: clock.now });
    const app = context.app;
    treatingDoctor = await createUser(app, { roles: ['doctor'], name: 'Dra. Tratante' });
    otherDoctor = await createUser(app, { roles: ['doctor'], name: 'Dr. Ajeno' });
    emergencyDoctor = await createUser(app, { roles: ['doctor'], name: 'Dr. Urgencias' });
    staff = await createUser(app, { roles: ['staff'], name: 'Recepción Uno' });
    patient = await createUser(app, { roles: ['patient'], name: 'Paciente Ana' });
    otherPatient = await createUser(app, { roles: ['patient'], name: 'Paciente Beto' });
    await createAppointment(app, {
      doctorId: treatingDoctor.id,
      patientId: patient.id,
      startsAt: '2026-05-01T10:00:00Z',
      status: 'completed',
    });
  });

  afterAll(async () => {
    await context?.close();
  });

  beforeEach(() => {
    clock.set('2026-05-04T09:00:00Z');
    sessions.clear();
  });
}
