import type { RecordExport } from '@telemedicina/shared/export';
import { and, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { notifications } from '../../db/schema.js';
import { auditEventsOf } from '../../test/factories.js';
import { pdfText } from '../../test/pdf-text.js';
import { type ReadZipEntry } from '../../test/zip-reader.js';
import { htmlToText } from './html-text.js';
import { createZipPathAllocator, safeFileName } from './export.presenter.js';
import {
  admin,
  as,
  context,
  doctor,
  englishAdmin,
  entryNamed,
  freshAdmin,
  missingDocumentId,
  otherPatient,
  patient,
  removedDocumentId,
  staff,
  summaryBytes,
  unzip,
  uploaded,
} from './export-test-support.js';

describe('GET /me/record/export', () => {
  let entries: ReadZipEntry[];
  let record: RecordExport;
  let response: LightMyRequestResponse;

  beforeAll(async () => {
    response = await as(patient, 'GET', '/me/record/export');
    ({ entries, record } = unzip(response));
  });

  it('answers a ZIP named in the patient’s language with the JSON, README, PDFs and documents', () => {
    expect(response.headers['content-disposition']).toBe(
      'attachment; filename="historia-clinica-2026-05-04.zip"',
    );
    expect(response.headers['cache-control']).toBe('private, no-store');
    const names = entries.map((entry) => entry.name);
    expect(names.slice(0, 3)).toEqual(['README.txt', 'record.json', 'resumen-historia-clinica.pdf']);
    const code = record.prescriptions[0]?.verificationCode;
    expect(names).toContain(`prescriptions/${code}.pdf`);
    expect(names).toContain(
      `summaries/2026-05-01-${record.documents.find((d) => d.kind === 'visit_summary')?.id.slice(0, 8)}.pdf`,
    );
    for (const [name, bytes] of uploaded) {
      expect(entryNamed(entries, name).data.equals(bytes), name).toBe(true);
    }
    expect(entries.filter((entry) => entry.name.startsWith('summaries/'))[0]?.data.equals(summaryBytes)).toBe(
      true,
    );
    for (const entry of entries.filter((candidate) => candidate.name.startsWith('prescriptions/'))) {
      expect(entry.data.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    }
    expect(
      names.every((name) => name.split('/').every((part) => part !== '..' && part !== '.' && part !== '')),
    ).toBe(true);
    expect(names).toHaveLength(2 + 1 + 1 + 1 + 3);
  });

  it('holds the whole record in record.json, validated by the shared schema', () => {
    expect(record).toMatchObject({
      format: 'telemedicina.record-export',
      version: 1,
      exportedAt: '2026-05-04T15:00:00.000Z',
      language: 'es',
      request: { by: 'patient', requester: { id: patient.id }, reason: null },
      patient: { id: patient.id, name: 'Paciente Ana Núñez' },
    });
    expect(record.allergies.map((allergy) => [allergy.substance, allergy.removedAt !== null]).sort()).toEqual(
      [
        ['Penicilina', false],
        ['Polen', true],
      ],
    );
    expect(record.appointments).toHaveLength(2);
    expect(record.vitals).toEqual([expect.objectContaining({ temperatureC: 38.2, heartRateBpm: 92 })]);
    expect(record.prescriptions[0]).toMatchObject({
      status: 'active',
      items: [expect.objectContaining({ medication: 'Amoxicilina 500 mg' })],
    });
    expect(record.prescriptions[0]?.verificationUrl).toMatch(/\/verify\/[0-9A-Z-]{14}$/);
    const [note] = record.visitNotes;
    expect(record.visitNotes).toHaveLength(1);
    expect(note?.sections.subjective.text).toBe('Tos & fiebre desde hace 3 días.');
    expect(note?.sections.objective.text).toBe('- Faringe roja\n- 38,2 °C');
    expect(note?.sections.plan.text).toBe('1. Reposo\n2. Líquidos');
    expect(note?.sections.assessment.html).not.toContain('onerror');
    expect(note?.diagnoses).toEqual([
      expect.objectContaining({
        code: 'J06.9',
        primary: true,
        nameEn: expect.stringContaining('Acute upper respiratory infection'),
      }),
    ]);
    expect(note?.addenda.map((addendum) => addendum.body.text)).toEqual(['Resultado del cultivo: negativo.']);
    const missing = record.documents.find((document) => document.id === missingDocumentId);
    expect(missing?.path).toBeNull();
    expect(record.documents.some((document) => document.id === removedDocumentId)).toBe(false);
    const hostile = record.documents.find((document) => document.name === '../../etc/passwd');
    expect(hostile?.path).toBe('documents/_.._etc_passwd.png');
    expect(record.accessLog.some((entry) => entry.action === 'record.updated')).toBe(true);
  });

  it('leaves out drafts, removed documents and every other patient', () => {
    const everything = Buffer.concat(entries.map((entry) => entry.data)).toString('latin1');
    const everythingUtf8 = Buffer.concat(entries.map((entry) => entry.data)).toString('utf8');
    expect(everything).not.toContain('BORRADOR-SECRETO');
    expect(everything).not.toContain('RETIRADO-NO-EXPORTAR');
    expect(everything).not.toContain('BETO-PRIVADO');
    expect(everythingUtf8).not.toContain('Látex-de-Beto');
    expect(everythingUtf8).not.toContain(otherPatient.id);
    expect(everythingUtf8).not.toContain('Beto');
  });

  it('writes a README in Spanish that lists what is missing', () => {
    const readme = entryNamed(entries, 'README.txt').data.toString('utf8');
    expect(readme).toContain('HISTORIA CLÍNICA DE PACIENTE ANA NÚÑEZ');
    expect(readme).toContain('borradores');
    expect(readme).toContain('1 archivo(s) que no se pudieron leer');
  });

  it('adds a readable PDF summary in Spanish, every time in the patient’s account zone', () => {
    const pdf = entryNamed(entries, 'resumen-historia-clinica.pdf').data;
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = pdfText(pdf);
    expect(text).toContain('Resumen de su historia clínica');
    expect(text).toContain('Paciente Ana Núñez');
    // The patient's zone (Mexico City, UTC−6) named once in words; the visit at 16:00 UTC is 10:00 there.
    expect(text).toContain('Todas las horas de este documento están en hora de Ciudad de México.');
    expect(text).toContain('1 de mayo de 2026 a las 10:00 · con Dra. Tratante');
    expect(text).toContain('3 de mayo de 2026 a las 10:00');
    expect(text).not.toMatch(/2026 a las (16|18):00/);
    expect(text).not.toContain('America/Mexico_City');
    // Allergies (the ended one marked), the visit's diagnosis, the prescription, the documents.
    expect(text).toContain('Penicilina');
    expect(text).toContain('grave');
    expect(text).toContain('Polen');
    expect(text).toContain('dada por terminada el 4 de mayo de 2026');
    expect(text).toContain('J06.9 Infección aguda de las vías respiratorias superiores');
    expect(text).toContain('Amoxicilina 500 mg');
    expect(text).toContain(record.prescriptions[0]!.verificationCode);
    expect(text).toContain('Análisis de sangre.pdf');
    expect(text).toContain('no se pudo incluir el archivo');
    // Usted, and nothing left out of the copy sneaks into its summary.
    expect(text).toContain('para que usted pueda leerla');
    expect(text).not.toContain('BORRADOR-SECRETO');
    expect(text).not.toContain('Retirado.pdf');
    expect(text).not.toContain('Beto');
  });

  it('is audited with the patient as actor and target', async () => {
    const events = await auditEventsOf(context.app, 'record.exported');
    const own = events.find((event) => event.actorUserId === patient.id);
    expect(own).toMatchObject({ targetType: 'patient', targetId: patient.id, outcome: 'success' });
    expect(own?.details).toMatchObject({ by: 'patient', access: 'self' });
    // Audited before the bytes leave, so the copy's access log already lists this export.
    expect(record.accessLog.some((entry) => entry.action === 'record.exported')).toBe(true);
  });

  it('gives an English-speaking patient an English README and nothing of anyone else', async () => {
    const { entries: otherEntries, record: otherRecord } = unzip(
      await as(otherPatient, 'GET', '/me/record/export'),
    );
    expect(entryNamed(otherEntries, 'README.txt').data.toString('utf8')).toContain(
      'MEDICAL RECORD OF PACIENTE BETO OTRO',
    );
    const summary = pdfText(entryNamed(otherEntries, 'medical-record-summary.pdf').data);
    expect(summary).toContain('Summary of your medical record');
    expect(summary).toContain('All times in this document are in Mexico City time.');
    expect(summary).toMatch(/May 2, 2026 at 10:00\W?AM/);
    expect(summary).toContain('Látex-de-Beto');
    expect(summary).not.toContain('Resumen');
    expect(summary).not.toContain('Penicilina');
    expect(otherRecord.patient.id).toBe(otherPatient.id);
    expect(otherRecord.allergies.map((allergy) => allergy.substance)).toEqual(['Látex-de-Beto']);
    expect(otherRecord.prescriptions).toEqual([]);
    const text = Buffer.concat(otherEntries.map((entry) => entry.data)).toString('utf8');
    expect(text).not.toContain(patient.id);
    expect(text).not.toContain('Penicilina');
  });

  it('refuses the signed-out, doctors, staff and administrators (no own record)', async () => {
    expect((await as(null, 'GET', '/me/record/export')).statusCode).toBe(401);
    expect((await as(doctor, 'GET', '/me/record/export')).statusCode).toBe(403);
    expect((await as(staff, 'GET', '/me/record/export')).statusCode).toBe(403);
    expect((await as(admin, 'GET', '/me/record/export')).statusCode).toBe(403);
  });
});

describe('POST /patients/:patientId/export', () => {
  const reason = 'Solicitud escrita de la paciente para cambiar de clínica';

  it('validates the reason with its field path', async () => {
    for (const body of [{}, { reason: 'corto' }, { reason: 'x'.repeat(501) }, { reason: 42 }]) {
      // A fresh administrator each time: the rate limit counts refused requests too.
      const response = await as(await freshAdmin(), 'POST', `/patients/${patient.id}/export`, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      const error = response.json<{ error: { code: string; details: { issues: { path: string }[] } } }>()
        .error;
      expect(error.code).toBe('VALIDATION_FAILED');
      expect(error.details.issues.map((issue) => issue.path)).toContain('reason');
    }
  });

  it('answers 403 to doctors, staff and patients, and 404 for anyone who is not a patient', async () => {
    for (const user of [doctor, staff, patient]) {
      const response = await as(user, 'POST', `/patients/${patient.id}/export`, { reason });
      expect(response.statusCode, user.name).toBe(403);
    }
    for (const id of [crypto.randomUUID(), doctor.id, 'not-a-uuid']) {
      expect(
        (await as(await freshAdmin(), 'POST', `/patients/${id}/export`, { reason })).statusCode,
        id,
      ).toBe(404);
    }
  });

  it('gives an administrator the same files as the patient, audited with the reason and the patient told', async () => {
    const own = unzip(await as(patient, 'GET', '/me/record/export'));
    const response = await as(englishAdmin, 'POST', `/patients/${patient.id}/export`, {
      reason: `  ${reason} `,
    });
    const { entries, record } = unzip(response);
    expect(response.headers['content-disposition']).toBe(
      'attachment; filename="medical-record-paciente-ana-nunez-2026-05-04.zip"',
    );
    expect(entries.map((entry) => entry.name)).toEqual(own.entries.map((entry) => entry.name));
    expect(record.request).toEqual({
      by: 'administrator',
      requester: { id: englishAdmin.id, name: 'Admin Two' },
      reason,
    });
    // Still in the patient's language, drafts still out.
    expect(record.language).toBe('es');
    expect(entryNamed(entries, 'README.txt').data.toString('utf8')).toContain('administración de la clínica');
    expect(Buffer.concat(entries.map((entry) => entry.data)).toString('latin1')).not.toContain(
      'BORRADOR-SECRETO',
    );

    const events = await auditEventsOf(context.app, 'record.exported');
    const adminEvent = events.find((event) => event.actorUserId === englishAdmin.id);
    expect(adminEvent).toMatchObject({ targetType: 'patient', targetId: patient.id });
    expect(adminEvent?.details).toMatchObject({ by: 'administrator', access: 'administrative', reason });
    const told = await context.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, patient.id), eq(notifications.kind, 'record.exported')));
    expect(told).toHaveLength(1);
    expect(told[0]?.data).toEqual({ exportedAt: '2026-05-04T15:00:00.000Z' });
  });

  it('limits exports to a few per user and minute', async () => {
    const limited = await freshAdmin();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 4; attempt += 1) {
      statuses.push(
        (await as(limited, 'POST', `/patients/${otherPatient.id}/export`, { reason })).statusCode,
      );
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    // Keyed by user: another administrator is not held back.
    expect((await as(admin, 'POST', `/patients/${otherPatient.id}/export`, { reason })).statusCode).toBe(200);
  });
});

describe('export helpers', () => {
  it('renders note HTML as plain text and sanitizes it again', () => {
    expect(
      htmlToText(
        '<h2>Plan</h2><p>Ver <a href="https://example.org/x">guía</a><br>y volver</p><script>x()</script>',
      ),
    ).toEqual({
      html: '<h2>Plan</h2><p>Ver <a href="https://example.org/x" rel="noopener noreferrer nofollow">guía</a><br>y volver</p>',
      text: 'Plan\nVer guía (https://example.org/x)\ny volver',
    });
    expect(htmlToText('').text).toBe('');
  });

  it('names files safely and deduplicates without regard to case', () => {
    expect(safeFileName('../../etc/passwd', 'image/png')).toBe('_.._etc_passwd.png');
    expect(safeFileName('  informe\u0000.PDF ', 'application/pdf')).toBe('informe.pdf');
    expect(safeFileName('foto.jpeg', 'image/jpeg')).toBe('foto.jpg');
    expect(safeFileName('CON', 'application/pdf')).toBe('CON_.pdf');
    expect(safeFileName('...', 'application/octet-stream')).toBe('document.bin');
    expect(safeFileName('a'.repeat(300), 'text/plain')).toBe(`${'a'.repeat(100)}.txt`);
    const allocate = createZipPathAllocator();
    expect([
      allocate('documents', 'a.pdf'),
      allocate('documents', 'A.pdf'),
      allocate('documents', 'a.pdf'),
      allocate('summaries', 'a.pdf'),
    ]).toEqual(['documents/a.pdf', 'documents/A (2).pdf', 'documents/a (3).pdf', 'summaries/a.pdf']);
  });
});
