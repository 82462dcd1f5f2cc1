/** The record export tests' world: a doctor, staff, two patients and admins, one patient's full record (visits, notes, vitals, documents, a summary PDF), and helpers to act as them and read the archive. */
import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { recordExportSchema, type RecordExport } from '@telemedicina/shared/export';
import { eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import {
  chartDocuments,
  files,
  visitNoteAddenda,
  visitNoteDiagnoses,
  visitNotes,
  visitVitals,
} from '../../db/schema.js';
import { createClock } from '../../test/booking-fixtures.js';
import { createAppointment, createUser, send, signIn, type TestUser } from '../../test/factories.js';
import { createTestContext, type TestContext } from '../../test/test-context.js';

import { readZip, type ReadZipEntry } from '../../test/zip-reader.js';
import { createFileStorage } from '../files/file-storage.js';

export const clock = createClock('2026-05-04T15:00:00Z');
export let context: TestContext;
export let doctor: TestUser;
export let staff: TestUser;
export let patient: TestUser;
export let otherPatient: TestUser;
export let admin: TestUser;
export let englishAdmin: TestUser;
export const sessions = new Map<TestUser, string>();
/** Bytes of each uploaded document by its chart label, to compare with what the ZIP holds. */
export const uploaded = new Map<string, Buffer>();
export let summaryBytes: Buffer;
export let removedDocumentId: string;
export let missingDocumentId: string;

export async function sessionOf(user: TestUser): Promise<string> {
  const known = sessions.get(user);
  if (known !== undefined) {
    return known;
  }
  const token = (await signIn(context.app, user)).token;
  sessions.set(user, token);
  return token;
}

export async function as(
  user: TestUser | null,
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  body?: unknown,
) {
  const session = user === null ? null : await sessionOf(user);
  return send(context.app, method, `/api/v1${url}`, { session, ...(body === undefined ? {} : { body }) });
}

export function pdfLike(label: string): Buffer {
  return Buffer.from(`%PDF-1.4\n% ${label}\n${'x'.repeat(3000)}\n%%EOF\n`, 'latin1');
}

export async function addDocument(
  owner: TestUser,
  input: {
    name: string;
    bytes: Buffer;
    contentType?: string;
    kind?: 'upload' | 'visit_summary';
    appointmentId?: string | null;
    removedAt?: Date | null;
  },
): Promise<string> {
  const storage = createFileStorage(context.config.uploadsDir);
  const storagePath = await storage.write('documents', 'bin', input.bytes);
  const db = context.db;
  const [file] = await db
    .insert(files)
    .values({
      ownerUserId: owner.id,
      sha256: createHash('sha256').update(input.bytes).digest('hex'),
      contentType: input.contentType ?? 'application/pdf',
      size: input.bytes.length,
      storagePath,
    })
    .returning();
  const [document] = await db
    .insert(chartDocuments)
    .values({
      patientUserId: owner.id,
      fileId: file!.id,
      kind: input.kind ?? 'upload',
      category: 'lab',
      name: input.name,
      appointmentId: input.appointmentId ?? null,
      uploadedByUserId: input.kind === 'visit_summary' ? null : owner.id,
      removedAt: input.removedAt ?? null,
    })
    .returning();
  return document!.id;
}

export function freshAdmin(): Promise<TestUser> {
  return createUser(context.app, { roles: ['admin'] });
}

export function entryNamed(entries: ReadZipEntry[], name: string): ReadZipEntry {
  const entry = entries.find((candidate) => candidate.name === name);
  if (entry === undefined) {
    throw new Error(`no ${name} in ${entries.map((candidate) => candidate.name).join(', ')}`);
  }
  return entry;
}

export function unzip(response: LightMyRequestResponse): { entries: ReadZipEntry[]; record: RecordExport } {
  expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
  expect(response.headers['content-type']).toBe('application/zip');
  const entries = readZip(response.rawPayload);
  const record = recordExportSchema.parse(
    JSON.parse(entryNamed(entries, 'record.json').data.toString('utf8')),
  );
  return { entries, record };
}

beforeAll(async () => {
  context = await createTestContext({ now: clock.now });
  const app = context.app;
  const db = context.db;
  doctor = await createUser(app, { roles: ['doctor'], name: 'Dra. Tratante' });
  staff = await createUser(app, { roles: ['staff'], name: 'Recepción Uno' });
  admin = await createUser(app, { roles: ['admin'], name: 'Admin Uno' });
  englishAdmin = await createUser(app, { roles: ['admin'], name: 'Admin Two', language: 'en' });
  patient = await createUser(app, { roles: ['patient'], name: 'Paciente Ana Núñez' });
  otherPatient = await createUser(app, { roles: ['patient'], name: 'Paciente Beto Otro', language: 'en' });
  const visit = await createAppointment(app, {
    doctorId: doctor.id,
    patientId: patient.id,
    startsAt: '2026-05-01T16:00:00Z',
    status: 'completed',
  });
  const laterVisit = await createAppointment(app, {
    doctorId: doctor.id,
    patientId: patient.id,
    startsAt: '2026-05-03T16:00:00Z',
    status: 'completed',
  });
  const otherVisit = await createAppointment(app, {
    doctorId: doctor.id,
    patientId: otherPatient.id,
    startsAt: '2026-05-02T16:00:00Z',
    status: 'completed',
  });
  await db.execute(sql`
    insert into diagnosis_codes (code, chapter, name_es, name_en, search_text)
    values ('J06.9', 'X', 'Infección aguda de las vías respiratorias superiores', 'Acute upper respiratory infection', 'j06.9')
    on conflict (code) do nothing`);

  // Clinical lists through the API: one allergy stays, one is ended.
  const kept = await as(doctor, 'POST', `/patients/${patient.id}/allergies`, {
    substance: 'Penicilina',
    severity: 'severe',
  });
  expect(kept.statusCode).toBe(201);
  const ended = await as(doctor, 'POST', `/patients/${patient.id}/allergies`, { substance: 'Polen' });
  expect(ended.statusCode).toBe(201);
  expect(
    (await as(doctor, 'DELETE', `/patients/${patient.id}/allergies/${ended.json<{ id: string }>().id}`))
      .statusCode,
  ).toBe(204);
  expect(
    (await as(doctor, 'POST', `/patients/${otherPatient.id}/allergies`, { substance: 'Látex-de-Beto' }))
      .statusCode,
  ).toBe(201);
  const prescription = await as(doctor, 'POST', `/patients/${patient.id}/prescriptions`, {
    appointmentId: visit.id,
    items: [
      {
        medication: 'Amoxicilina 500 mg',
        dose: '1 cápsula',
        route: 'oral',
        frequency: 'cada 8 horas',
        duration: '7 días',
        quantity: '21',
      },
    ],
  });
  expect(prescription.statusCode).toBe(201);

  // A signed note with a diagnosis and an addendum (written like the notes module does: draft,
  // diagnoses, then signed), and a draft that must never leave the clinic.
  const [note] = await db
    .insert(visitNotes)
    .values({
      appointmentId: visit.id,
      patientUserId: patient.id,
      doctorUserId: doctor.id,
      subjectiveHtml: '<p>Tos &amp; fiebre desde hace <strong>3 días</strong>.</p>',
      objectiveHtml: '<ul><li>Faringe roja</li><li>38,2 °C</li></ul>',
      assessmentHtml: '<p>Infección respiratoria alta.</p><img src=x onerror="alert(1)">',
      planHtml: '<ol><li>Reposo</li><li>Líquidos</li></ol>',
    })
    .returning();
  await db
    .insert(visitNoteDiagnoses)
    .values({ noteId: note!.id, code: 'J06.9', position: 1, isPrimary: true });
  await db
    .update(visitNotes)
    .set({ status: 'signed', signedAt: new Date('2026-05-01T17:00:00Z'), signedByUserId: doctor.id })
    .where(eq(visitNotes.id, note!.id));
  await db.insert(visitNoteAddenda).values({
    noteId: note!.id,
    authorUserId: doctor.id,
    bodyHtml: '<p>Resultado del cultivo: negativo.</p>',
    signedAt: new Date('2026-05-02T10:00:00Z'),
  });
  await db.insert(visitNotes).values({
    appointmentId: laterVisit.id,
    patientUserId: patient.id,
    doctorUserId: doctor.id,
    subjectiveHtml: '<p>BORRADOR-SECRETO sin firmar</p>',
  });
  await db.insert(visitVitals).values({
    appointmentId: visit.id,
    patientUserId: patient.id,
    temperatureC: 38.2,
    heartRateBpm: 92,
  });

  // Documents: two with the same label, a hostile label, a summary, a removed one, one whose file is gone.
  const first = pdfLike('analisis-1');
  const second = pdfLike('analisis-2');
  const hostile = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);
  uploaded.set('documents/Análisis de sangre.pdf', first);
  uploaded.set('documents/análisis de sangre (2).pdf', second);
  uploaded.set('documents/_.._etc_passwd.png', hostile);
  await addDocument(patient, { name: 'Análisis de sangre.pdf', bytes: first });
  await addDocument(patient, { name: 'análisis de sangre', bytes: second });
  await addDocument(patient, { name: '../../etc/passwd', bytes: hostile, contentType: 'image/png' });
  summaryBytes = pdfLike('resumen');
  await addDocument(patient, {
    name: 'Resumen de consulta',
    bytes: summaryBytes,
    kind: 'visit_summary',
    appointmentId: visit.id,
  });
  removedDocumentId = await addDocument(patient, {
    name: 'Retirado.pdf',
    bytes: pdfLike('RETIRADO-NO-EXPORTAR'),
    removedAt: new Date('2026-05-02T00:00:00Z'),
  });
  missingDocumentId = await addDocument(patient, { name: 'Perdido.pdf', bytes: pdfLike('perdido') });
  const [missing] = await db
    .select({ storagePath: files.storagePath })
    .from(chartDocuments)
    .innerJoin(files, eq(files.id, chartDocuments.fileId))
    .where(eq(chartDocuments.id, missingDocumentId));
  await rm(path.join(context.config.uploadsDir, missing!.storagePath));
  await addDocument(otherPatient, {
    name: 'Informe de Beto.pdf',
    bytes: pdfLike('BETO-PRIVADO'),
    kind: 'visit_summary',
    appointmentId: otherVisit.id,
  });
});

afterAll(async () => {
  await context?.close();
});
