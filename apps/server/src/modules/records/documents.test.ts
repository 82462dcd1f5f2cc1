import type { ChartDocument, DocumentPage } from '@telemedicina/shared/documents';
import type { Chart, RecordAccessPage } from '@telemedicina/shared/records';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { chartDocuments, files } from '../../db/schema.js';
import { tinyPdf, uploadChartDocument } from '../../test/document-fixtures.js';
import { auditEventsOf } from '../../test/factories.js';
import { documentLabelOf } from '../../lib/document-label.js';
import { contentDispositionOf } from './documents.presenter.js';
import {
  as,
  context,
  emergencyDoctor,
  otherDoctor,
  otherPatient,
  patient,
  pdf,
  png,
  staff,
  storedState,
  treatingDoctor,
  upload,
  setUpChartDocuments,
} from './documents-test-support.js';

setUpChartDocuments();

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

    const [row] = await context.db.select().from(chartDocuments).where(eq(chartDocuments.id, byPatient.id));
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
    const [summaryFile] = await context.db
      .insert(files)
      .values({
        ownerUserId: patient.id,
        sha256: '0'.repeat(64),
        contentType: 'application/pdf',
        size: 10,
        storagePath: 'documents/00000000-0000-4000-8000-000000000000.pdf',
      })
      .returning();
    const [summary] = await context.db
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
