import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Chart, ChartDocument, DocumentPage, RecordAccessPage } from '@telemedicina/shared';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chartDocuments, files } from '../../db/schema.js';
import { createClock } from '../../test/booking-fixtures.js';
import {
  pngBomb,
  solidPng,
  tinyPdf,
  uploadChartDocument,
  type UploadFile,
} from '../../test/document-fixtures.js';
import {
  auditEventsOf,
  createAppointment,
  createUser,
  nextRemoteAddress,
  requestHeaders,
  send,
  signIn,
  type TestUser,
} from '../../test/factories.js';
import { createTestContext, type TestContext } from '../../test/test-context.js';
import { writeSetting } from '../settings/settings.repository.js';
import { settingKeys } from '../settings/settings.service.js';
import { documentLabelOf } from '../../lib/document-label.js';
import { contentDispositionOf } from './documents.presenter.js';

const clock = createClock('2026-05-04T09:00:00Z');
let context: TestContext;
let treatingDoctor: TestUser;
let otherDoctor: TestUser;
let emergencyDoctor: TestUser;
let staff: TestUser;
let patient: TestUser;
let otherPatient: TestUser;
const sessions = new Map<TestUser, string>();

async function sessionOf(user: TestUser): Promise<string> {
  const known = sessions.get(user);
  if (known !== undefined) {
    return known;
  }
  const token = (await signIn(context.app, user)).token;
  sessions.set(user, token);
  return token;
}

async function as(user: TestUser, method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) {
  return send(context.app, method, `/api/v1${url}`, {
    session: await sessionOf(user),
    ...(body === undefined ? {} : { body }),
  });
}

async function upload(user: TestUser, patientId: string, file: UploadFile | null, fields = {}) {
  return uploadChartDocument(context.app, await sessionOf(user), patientId, file, fields);
}

/** Every file under a folder (relative paths), or nothing when it does not exist. */
async function listFilesUnder(folder: string): Promise<string[]> {
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
async function storedState() {
  const db = context.db.db;
  const [fileRows] = await db.select({ n: count() }).from(files);
  const [documentRows] = await db.select({ n: count() }).from(chartDocuments);
  return {
    files: Number(fileRows?.n ?? 0),
    documents: Number(documentRows?.n ?? 0),
    onDisk: await listFilesUnder(context.tempDir),
  };
}

const pdf = (name = 'informe.pdf'): UploadFile => ({ name, type: 'application/pdf', bytes: tinyPdf(name) });
const png = (name = 'foto.png'): UploadFile => ({ name, type: 'image/png', bytes: solidPng(4, 3) });
const exeBytes = Buffer.concat([
  Buffer.from('MZ', 'latin1'),
  Buffer.alloc(58),
  Buffer.from([0x80, 0, 0, 0]),
  Buffer.from('This program cannot be run in DOS mode.\r\n', 'latin1'),
  Buffer.from([0, 0, 0, 0, 0x50, 0x45, 0, 0]),
]);

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

describe('uploading', () => {
  it('lets the patient add a PDF to their own chart: stored by content, audited, listed in the chart', async () => {
    const before = await storedState();
    const response = await upload(patient, patient.id, pdf('Analítica marzo.pdf'), { category: 'lab' });
    expect(response.statusCode, response.body).toBe(201);
    const document = response.json<ChartDocument>();
    expect(document).toMatchObject({
      name: 'Analítica marzo.pdf',
      kind: 'upload',
      category: 'lab',
      contentType: 'application/pdf',
      size: tinyPdf('Analítica marzo.pdf').length,
      width: null,
      uploadedBy: { id: patient.id, name: 'Paciente Ana', role: 'patient' },
      removedAt: null,
      canRemove: true,
    });
    const after = await storedState();
    expect(after.files).toBe(before.files + 1);
    expect(after.documents).toBe(before.documents + 1);
    const added = after.onDisk.filter((file) => !before.onDisk.includes(file));
    expect(added).toHaveLength(1);
    expect(added[0]).toMatch(/^uploads\/documents\/[0-9a-f-]{36}\.pdf$/);

    const uploaded = (await auditEventsOf(context.app, 'document.uploaded')).at(-1);
    expect(uploaded).toMatchObject({
      actorUserId: patient.id,
      targetType: 'patient',
      targetId: patient.id,
      details: { documentId: document.id, contentType: 'application/pdf', category: 'lab', access: 'self' },
    });

    const chart = (await as(treatingDoctor, 'GET', `/patients/${patient.id}/chart`)).json<Chart>();
    expect(chart.clinical?.documents.map((entry) => entry.id)).toContain(document.id);
    const listed = chart.clinical?.documents.find((entry) => entry.id === document.id);
    // A treating doctor may remove the patient's upload.
    expect(listed?.canRemove).toBe(true);
  });

  it('lets a treating doctor and an emergency-access doctor upload; refuses everyone else with nothing stored', async () => {
    const byDoctor = await upload(treatingDoctor, patient.id, png('rx.png'), { category: 'imaging' });
    expect(byDoctor.statusCode, byDoctor.body).toBe(201);
    expect(byDoctor.json<ChartDocument>()).toMatchObject({
      contentType: 'image/png',
      width: 4,
      height: 3,
      category: 'imaging',
      uploadedBy: { id: treatingDoctor.id, role: 'doctor' },
    });

    const before = await storedState();
    expect((await upload(otherDoctor, patient.id, pdf())).statusCode).toBe(404);
    expect((await upload(staff, patient.id, pdf())).statusCode).toBe(403);
    expect((await upload(otherPatient, patient.id, pdf())).statusCode).toBe(404);
    expect((await upload(patient, treatingDoctor.id, pdf())).statusCode).toBe(404);
    expect((await upload(patient, 'not-a-uuid', pdf())).statusCode).toBe(404);
    const anonymous = await uploadChartDocument(context.app, '', patient.id, pdf());
    expect(anonymous.statusCode).toBe(401);
    expect(await storedState()).toEqual(before);

    const granted = await as(emergencyDoctor, 'POST', `/patients/${patient.id}/emergency-access`, {
      reason: 'Paciente inconsciente en urgencias, necesito sus estudios.',
    });
    expect(granted.statusCode, granted.body).toBe(201);
    const byEmergency = await upload(emergencyDoctor, patient.id, pdf('urgencias.pdf'));
    expect(byEmergency.statusCode).toBe(201);
    expect((await auditEventsOf(context.app, 'document.uploaded')).at(-1)?.details).toMatchObject({
      access: 'emergency',
      emergency: true,
    });
  });

  it('validates the form: multipart only, the file field, a known category', async () => {
    const before = await storedState();
    const json = await as(patient, 'POST', `/patients/${patient.id}/documents`, { file: 'x' });
    expect(json.statusCode).toBe(415);
    expect(json.json()).toMatchObject({ error: { code: 'UNSUPPORTED_MEDIA_TYPE' } });
    const noFile = await upload(patient, patient.id, null, { category: 'lab' });
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json()).toMatchObject({ error: { code: 'VALIDATION_FAILED' } });
    const badCategory = await upload(patient, patient.id, pdf(), { category: 'secret' });
    expect(badCategory.statusCode).toBe(400);
    expect(badCategory.json()).toMatchObject({
      error: { code: 'VALIDATION_FAILED', details: { issues: [{ path: 'category' }] } },
    });
    const unknownField = await upload(patient, patient.id, pdf(), { owner: 'someone' });
    expect(unknownField.statusCode).toBe(400);
    expect(await storedState()).toEqual(before);
  });
});

describe('refused uploads store nothing', () => {
  async function expectRefused(
    response: Awaited<ReturnType<typeof upload>>,
    status: number,
    code: string,
    before: Awaited<ReturnType<typeof storedState>>,
  ) {
    expect(response.statusCode, response.body).toBe(status);
    expect(response.json()).toMatchObject({ error: { code } });
    expect(await storedState()).toEqual(before);
  }

  it('refuses a file over the clinic limit (413 with maxBytes)', async () => {
    await writeSetting(context.db.db, settingKeys.maxFileSizeMb, 1, { now: clock.now() });
    try {
      const before = await storedState();
      const big = Buffer.concat([tinyPdf(), Buffer.alloc(1024 * 1024 + 10, 0x20)]);
      const response = await upload(patient, patient.id, {
        name: 'grande.pdf',
        type: 'application/pdf',
        bytes: big,
      });
      await expectRefused(response, 413, 'PAYLOAD_TOO_LARGE', before);
      expect(response.json()).toMatchObject({ error: { details: { maxBytes: 1024 * 1024 } } });
    } finally {
      await writeSetting(context.db.db, settingKeys.maxFileSizeMb, 10, { now: clock.now() });
    }
  });

  it('refuses a declared huge body before reading it', async () => {
    const before = await storedState();
    let pulled = 0;
    const chunk = Buffer.alloc(64 * 1024, 0x41);
    const endless = new Readable({
      read() {
        pulled += chunk.length;
        this.push(pulled > 200 * 1024 * 1024 ? null : chunk);
      },
    });
    const response = await context.app.inject({
      method: 'POST',
      url: `/api/v1/patients/${patient.id}/documents`,
      headers: {
        ...requestHeaders(await sessionOf(patient)),
        'content-type': 'multipart/form-data; boundary=----x',
        'content-length': String(200 * 1024 * 1024),
      },
      remoteAddress: nextRemoteAddress(),
      payload: endless,
    });
    await expectRefused(response, 413, 'PAYLOAD_TOO_LARGE', before);
    // Far less than the 200 MB offered was read (the stream's own buffering aside).
    expect(pulled).toBeLessThan(20 * 1024 * 1024);
  });

  it('refuses content of the wrong kind whatever its name and claimed type (415)', async () => {
    const before = await storedState();
    await expectRefused(
      await upload(patient, patient.id, { name: 'informe.pdf', type: 'application/pdf', bytes: exeBytes }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      before,
    );
    const html = Buffer.from('<!doctype html><html><script>alert(document.cookie)</script></html>');
    await expectRefused(
      await upload(patient, patient.id, { name: 'informe.pdf', type: 'application/pdf', bytes: html }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      before,
    );
    await expectRefused(
      await upload(patient, patient.id, { name: 'x.png', type: 'image/png', bytes: exeBytes }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      before,
    );
    // Even when plain text is allowed, markup is not.
    await writeSetting(context.db.db, settingKeys.allowedKinds, ['pdf', 'png', 'txt'], { now: clock.now() });
    try {
      await expectRefused(
        await upload(patient, patient.id, { name: 'notas.txt', type: 'text/plain', bytes: html }),
        415,
        'UNSUPPORTED_MEDIA_TYPE',
        before,
      );
      const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>');
      await expectRefused(
        await upload(patient, patient.id, { name: 'logo.txt', type: 'text/plain', bytes: svg }),
        415,
        'UNSUPPORTED_MEDIA_TYPE',
        before,
      );
    } finally {
      await writeSetting(context.db.db, settingKeys.allowedKinds, ['pdf', 'png', 'jpeg', 'webp'], {
        now: clock.now(),
      });
    }
  });

  it('answers malformed or greedy multipart envelopes with a 4xx, never a 500', async () => {
    const before = await storedState();
    const session = await sessionOf(patient);
    const raw = (contentType: string, payload: Buffer | string) =>
      context.app.inject({
        method: 'POST',
        url: `/api/v1/patients/${patient.id}/documents`,
        headers: { ...requestHeaders(session), 'content-type': contentType },
        remoteAddress: nextRemoteAddress(),
        payload,
      });
    const manyFields = Object.fromEntries(Array.from({ length: 20 }, (_, index) => [`f${index}`, 'x']));
    const cases = [
      await upload(patient, patient.id, pdf(), manyFields),
      await upload(patient, patient.id, {
        name: 'vacío.pdf',
        type: 'application/pdf',
        bytes: Buffer.alloc(0),
      }),
      await raw('multipart/form-data; boundary=----b', '----b\r\nnot a part'),
      await raw('multipart/form-data', 'no boundary at all'),
      await raw(
        'multipart/form-data; boundary=b',
        '--b\r\nContent-Disposition: form-data; name="other"; filename="a.pdf"\r\n\r\n%PDF-1.4\r\n--b--\r\n',
      ),
    ];
    for (const response of cases) {
      expect(response.statusCode, response.body).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, response.body).toBeLessThan(500);
      expect(response.json<{ error: { code: string } }>().error.code).toBeTruthy();
    }
    expect(await storedState()).toEqual(before);
  });

  it('refuses an image bomb by its header dimensions (422 IMAGE_TOO_LARGE)', async () => {
    const before = await storedState();
    const bomb = pngBomb(10_000, 10_000);
    expect(bomb.length).toBeLessThan(2_000);
    const response = await upload(patient, patient.id, { name: 'bomba.png', type: 'image/png', bytes: bomb });
    await expectRefused(response, 422, 'IMAGE_TOO_LARGE', before);
    expect(response.json()).toMatchObject({
      error: { details: { width: 10_000, height: 10_000, maxPixels: 50_000_000 } },
    });
  });

  it('keeps a spoofed extension and hostile names only as safe labels, inside the uploads folder', async () => {
    const before = await storedState();
    const spoofed = await upload(patient, patient.id, {
      name: 'x.exe',
      type: 'application/x-msdownload',
      bytes: solidPng(2, 2),
    });
    expect(spoofed.statusCode, spoofed.body).toBe(201);
    expect(spoofed.json<ChartDocument>()).toMatchObject({ name: 'x.png', contentType: 'image/png' });

    const hostile: [string, string][] = [
      ['../../etc/passwd', 'passwd.pdf'],
      ['..\\..\\win.ini', 'win.pdf'],
      ['re\u0000port\u0007.pdf', 'report.pdf'],
      ['factura\u202Efdp.exe', 'facturafdp.pdf'],
      ['....', 'file.pdf'],
    ];
    for (const [name, label] of hostile) {
      const response = await upload(patient, patient.id, pdf(name));
      expect(response.statusCode, `${JSON.stringify(name)}: ${response.body}`).toBe(201);
      expect(response.json<ChartDocument>().name, JSON.stringify(name)).toBe(label);
    }
    const after = await storedState();
    const added = after.onDisk.filter((file) => !before.onDisk.includes(file));
    expect(added).toHaveLength(1 + hostile.length);
    for (const file of added) {
      expect(file).toMatch(/^uploads\/documents\/[0-9a-f-]{36}\.(pdf|png)$/);
    }
    const storagePaths = await context.db.db.select({ storagePath: files.storagePath }).from(files);
    for (const { storagePath } of storagePaths) {
      expect(storagePath).not.toMatch(/\.\.|passwd|win\.ini/);
    }
  });
});

describe('reading', () => {
  it('lists documents for the patient and their doctors only, audited as record.viewed', async () => {
    const own = await as(patient, 'GET', `/patients/${patient.id}/documents?pageSize=100`);
    expect(own.statusCode).toBe(200);
    const page = own.json<DocumentPage>();
    expect(page.total).toBeGreaterThan(2);
    const times = page.data.map((entry) => entry.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    const viewed = (await auditEventsOf(context.app, 'record.viewed')).at(-1);
    expect(viewed).toMatchObject({
      actorUserId: patient.id,
      targetType: 'patient',
      targetId: patient.id,
      details: { section: 'documents' },
    });
    const filtered = (
      await as(treatingDoctor, 'GET', `/patients/${patient.id}/documents?category=imaging`)
    ).json<DocumentPage>();
    expect(filtered.data.length).toBeGreaterThan(0);
    expect(filtered.data.every((entry) => entry.category === 'imaging')).toBe(true);
    const searched = (
      await as(
        treatingDoctor,
        'GET',
        `/patients/${patient.id}/documents?q=${encodeURIComponent('analítica')}`,
      )
    ).json<DocumentPage>();
    expect(searched.data.map((entry) => entry.name)).toEqual(['Analítica marzo.pdf']);

    expect((await as(otherDoctor, 'GET', `/patients/${patient.id}/documents`)).statusCode).toBe(404);
    expect((await as(otherPatient, 'GET', `/patients/${patient.id}/documents`)).statusCode).toBe(404);
    expect((await as(staff, 'GET', `/patients/${patient.id}/documents`)).statusCode).toBe(403);
    expect((await as(patient, 'GET', `/patients/${patient.id}/documents?category=x`)).statusCode).toBe(400);
  });

  it('serves the bytes with the sniffed type, safe headers and an encoded name; audited with the document id', async () => {
    const stored = await upload(patient, patient.id, pdf('Informe final; ñandú.pdf'));
    const document = stored.json<ChartDocument>();
    const url = `/patients/${patient.id}/documents/${document.id}/file`;
    const response = await as(treatingDoctor, 'GET', url);
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.equals(tinyPdf('Informe final; ñandú.pdf'))).toBe(true);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['cache-control']).toBe('private, no-store');
    expect(response.headers['content-security-policy']).toContain("default-src 'none'");
    expect(response.headers['content-security-policy']).toContain('sandbox');
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'self'");
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(response.headers['content-disposition']).toBe(
      `inline; filename="Informe final_ _and_.pdf"; filename*=UTF-8''Informe%20final%3B%20%C3%B1and%C3%BA.pdf`,
    );
    const viewed = (await auditEventsOf(context.app, 'record.viewed')).at(-1);
    expect(viewed).toMatchObject({
      actorUserId: treatingDoctor.id,
      targetId: patient.id,
      details: { section: 'document', documentId: document.id, disposition: 'inline' },
    });

    const download = await as(patient, 'GET', `${url}?download=1`);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-disposition']).toMatch(/^attachment; /);
    expect(download.headers['x-frame-options']).toBe('DENY');

    expect((await as(otherDoctor, 'GET', url)).statusCode).toBe(404);
    expect((await as(otherPatient, 'GET', url)).statusCode).toBe(404);
    expect((await as(staff, 'GET', url)).statusCode).toBe(403);
    expect(
      (await as(patient, 'GET', `/patients/${otherPatient.id}/documents/${document.id}/file`)).statusCode,
    ).toBe(404);
    expect((await as(patient, 'GET', `/patients/${patient.id}/documents/nope/file`)).statusCode).toBe(404);
    expect((await as(patient, 'GET', `${url}?download=yes`)).statusCode).toBe(400);
  });
});

describe('removing', () => {
  it('lets the uploader or a treating doctor remove an upload (kept, audited); never a visit summary', async () => {
    const byPatient = (await upload(patient, patient.id, pdf('quitar.pdf'))).json<ChartDocument>();
    const byDoctor = (await upload(treatingDoctor, patient.id, pdf('del-medico.pdf'))).json<ChartDocument>();

    const refused = await as(patient, 'DELETE', `/patients/${patient.id}/documents/${byDoctor.id}`);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: { code: 'FORBIDDEN' } });
    expect(
      (await as(emergencyDoctor, 'DELETE', `/patients/${patient.id}/documents/${byPatient.id}`)).statusCode,
    ).toBe(403);
    expect(
      (await as(otherDoctor, 'DELETE', `/patients/${patient.id}/documents/${byPatient.id}`)).statusCode,
    ).toBe(404);
    expect((await as(staff, 'DELETE', `/patients/${patient.id}/documents/${byPatient.id}`)).statusCode).toBe(
      403,
    );

    const removed = await as(patient, 'DELETE', `/patients/${patient.id}/documents/${byPatient.id}`);
    expect(removed.statusCode).toBe(204);
    expect(
      (await as(patient, 'DELETE', `/patients/${patient.id}/documents/${byPatient.id}`)).statusCode,
    ).toBe(404);
    expect(
      (await as(treatingDoctor, 'DELETE', `/patients/${patient.id}/documents/${byDoctor.id}`)).statusCode,
    ).toBe(204);
    const audit = (await auditEventsOf(context.app, 'document.removed')).at(-1);
    expect(audit).toMatchObject({
      actorUserId: treatingDoctor.id,
      targetId: patient.id,
      details: { documentId: byDoctor.id },
    });

    const [row] = await context.db.db
      .select()
      .from(chartDocuments)
      .where(eq(chartDocuments.id, byPatient.id));
    expect(row?.removedAt).not.toBeNull();
    expect(row?.removedByUserId).toBe(patient.id);
    expect(
      (await as(patient, 'GET', `/patients/${patient.id}/documents/${byPatient.id}/file`)).statusCode,
    ).toBe(404);
    const live = (
      await as(patient, 'GET', `/patients/${patient.id}/documents?pageSize=100`)
    ).json<DocumentPage>();
    expect(live.data.map((entry) => entry.id)).not.toContain(byPatient.id);
    const all = (
      await as(patient, 'GET', `/patients/${patient.id}/documents?pageSize=100&include=removed`)
    ).json<DocumentPage>();
    expect(all.data.find((entry) => entry.id === byPatient.id)).toMatchObject({ canRemove: false });
    expect(all.data.find((entry) => entry.id === byPatient.id)?.removedAt).not.toBeNull();

    // A visit summary (written when a note is signed) is part of the signed record.
    const [summaryFile] = await context.db.db
      .insert(files)
      .values({
        ownerUserId: patient.id,
        sha256: '0'.repeat(64),
        contentType: 'application/pdf',
        size: 10,
        storagePath: 'documents/00000000-0000-4000-8000-000000000000.pdf',
      })
      .returning();
    const [summary] = await context.db.db
      .insert(chartDocuments)
      .values({
        patientUserId: patient.id,
        fileId: summaryFile!.id,
        kind: 'visit_summary',
        category: 'report',
        name: 'Resumen de la consulta.pdf',
        uploadedByUserId: treatingDoctor.id,
      })
      .returning();
    const listed = (
      await as(treatingDoctor, 'GET', `/patients/${patient.id}/documents?pageSize=100`)
    ).json<DocumentPage>();
    expect(listed.data.find((entry) => entry.id === summary!.id)).toMatchObject({
      kind: 'visit_summary',
      canRemove: false,
    });
    const conflict = await as(treatingDoctor, 'DELETE', `/patients/${patient.id}/documents/${summary!.id}`);
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json()).toMatchObject({
      error: { code: 'CONFLICT', details: { reason: 'visitSummary' } },
    });
  });

  it("shows uploads, removals and doctors' reads in the patient's access log", async () => {
    const log = (await as(patient, 'GET', '/me/record-access?pageSize=100')).json<RecordAccessPage>();
    const actions = log.data.map((entry) => entry.action);
    expect(actions).toContain('document.uploaded');
    expect(actions).toContain('document.removed');
    expect(
      log.data.some((entry) => entry.action === 'record.viewed' && entry.actor?.id === treatingDoctor.id),
    ).toBe(true);
  });
});

describe('labels and headers', () => {
  it('derives a safe label whose ending matches the content', () => {
    expect(documentLabelOf('scan.JPG', 'jpeg')).toBe('scan.JPG'.slice(0, 4) + '.jpg');
    expect(documentLabelOf('resultado 12.05.2024', 'pdf')).toBe('resultado 12.05.2024.pdf');
    expect(documentLabelOf(undefined, 'png')).toBe('file.png');
    expect(documentLabelOf('C:\\Users\\ana\\informe.html', 'pdf')).toBe('informe.pdf');
    expect(documentLabelOf(`${'a'.repeat(300)}.pdf`, 'pdf')).toBe(`${'a'.repeat(100)}.pdf`);
  });

  it('encodes any label into a header that cannot be split', () => {
    const header = contentDispositionOf('a"b\\c;d\r\ne.pdf', 'attachment');
    expect(header).not.toMatch(/[\r\n]/);
    expect(header).toBe(`attachment; filename="a_b_c_d__e.pdf"; filename*=UTF-8''a%22b%5Cc%3Bd%0D%0Ae.pdf`);
  });
});
