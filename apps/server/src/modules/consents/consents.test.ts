import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consentSignedContent } from '@telemedicina/shared/consents';
import { chartDocuments, consentSignatures, files, notifications } from '../../db/schema.js';
import {
  auditEventsOf,
  createAppointment,
  createUser,
  send,
  signIn,
  type SignedInClient,
} from '../../test/factories.js';
import { pngHeader } from '../../test/images.js';
import { calendarDateIn } from '../settings/clinic-dates.js';
import { pdfText } from '../../test/pdf-text.js';
import { createTestContext, type TestContext } from '../../test/test-context.js';

let context: TestContext;
let patient: SignedInClient;
let englishPatient: SignedInClient;
let otherPatient: SignedInClient;
let doctor: SignedInClient;
let strangerDoctor: SignedInClient;
let staff: SignedInClient;
let admin: SignedInClient;
let telemedicineId: string;

type ConsentDocumentAnswer = {
  id: string;
  kind: string;
  current: { id: string; version: number; titleEs: string; bodyEs: string; titleEn: string; bodyEn: string };
};
type SignatureAnswer = {
  id: string;
  version: number;
  contentSha256: string;
  verificationCode: string;
  chartDocumentId: string;
  withdrawnAt: string | null;
};
type PatientConsentsAnswer = {
  items: { documentId: string; kind: string; state: string; required: boolean; currentVersion: number }[];
  requiredMissing: boolean;
  signatures: SignatureAnswer[];
};

const drawn = pngHeader(300, 120).toString('base64');

beforeAll(async () => {
  context = await createTestContext();
  const user = async (roles: string[], language: 'es' | 'en' = 'es') =>
    signIn(context.app, await createUser(context.app, { roles, language }));
  patient = await user(['patient']);
  englishPatient = await user(['patient'], 'en');
  otherPatient = await user(['patient']);
  doctor = await user(['doctor']);
  strangerDoctor = await user(['doctor']);
  staff = await user(['staff']);
  admin = await user(['admin']);
  for (const [index, who] of [patient, englishPatient].entries()) {
    await createAppointment(context.app, {
      doctorId: doctor.me.user.id,
      patientId: who.me.user.id,
      startsAt: new Date(Date.now() + (2 * 24 + index) * 60 * 60_000),
    });
  }
  const list = await send(context.app, 'GET', '/api/v1/admin/consent-documents', { session: admin.token });
  expect(list.statusCode).toBe(200);
  const items = list.json<{ items: { id: string; kind: string; isSystem: boolean }[] }>().items;
  const telemedicine = items.find((item) => item.kind === 'telemedicine' && item.isSystem);
  expect(telemedicine).toBeDefined();
  telemedicineId = telemedicine!.id;
});

afterAll(async () => {
  await context?.close();
});

async function documentOf(id: string, who: SignedInClient = patient): Promise<ConsentDocumentAnswer> {
  const response = await send(context.app, 'GET', `/api/v1/consent-documents/${id}`, { session: who.token });
  expect(response.statusCode).toBe(200);
  return response.json<ConsentDocumentAnswer>();
}

function sign(who: SignedInClient, documentId: string, body: Record<string, unknown>) {
  return send(context.app, 'POST', `/api/v1/consent-documents/${documentId}/signatures`, {
    session: who.token,
    body,
    headers: { 'user-agent': 'ConsentTest/1.0 (Pixel 7)' },
  });
}

function consentsOf(who: SignedInClient, patientId: string) {
  return send(context.app, 'GET', `/api/v1/patients/${patientId}/consents`, { session: who.token });
}

async function signatureCount(): Promise<number> {
  return (await context.db.select({ id: consentSignatures.id }).from(consentSignatures)).length;
}

async function pdfOf(signatureId: string): Promise<Buffer> {
  const [row] = await context.db
    .select({ storagePath: files.storagePath, sha256: files.sha256 })
    .from(consentSignatures)
    .innerJoin(files, eq(files.id, consentSignatures.pdfFileId))
    .where(eq(consentSignatures.id, signatureId));
  const bytes = await readFile(path.join(context.app.services.config.uploadsDir, row!.storagePath));
  expect(createHash('sha256').update(bytes).digest('hex')).toBe(row!.sha256);
  return bytes;
}

describe('signing a consent', () => {
  it('asks a new patient to sign the telemedicine consent (required, not signed)', async () => {
    const response = await consentsOf(patient, patient.me.user.id);
    expect(response.statusCode).toBe(200);
    const body = response.json<PatientConsentsAnswer>();
    const telemedicine = body.items.find((item) => item.documentId === telemedicineId);
    expect(telemedicine).toMatchObject({
      kind: 'telemedicine',
      state: 'not_signed',
      required: true,
      currentVersion: 1,
    });
    expect(body.requiredMissing).toBe(true);
  });

  it('signs by drawing: a PDF in the documents with the text, the signature image and the hash of the text', async () => {
    const document = await documentOf(telemedicineId);
    const response = await sign(patient, telemedicineId, {
      versionId: document.current.id,
      language: 'es',
      method: 'drawn',
      signaturePng: `data:image/png;base64,${drawn}`,
    });
    expect(response.statusCode).toBe(201);
    const signature = response.json<SignatureAnswer>();
    const expectedHash = createHash('sha256')
      .update(consentSignedContent(document.current.titleEs, document.current.bodyEs))
      .digest('hex');
    expect(signature.contentSha256).toBe(expectedHash);
    expect(signature.verificationCode).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);

    const pdf = await pdfOf(signature.id);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = pdfText(pdf);
    expect(text).toContain('Consentimiento informado para la atención por telemedicina');
    expect(text).toContain('no puede explorarle físicamente');
    expect(text).toContain(expectedHash);
    expect(text).toContain(signature.verificationCode);
    expect(text).toContain('Firma manuscrita en pantalla');
    expect(text).toContain('ConsentTest/1.0 (Pixel 7)');
    // The time in the account's zone, with the zone named in words (test accounts: Mexico City).
    expect(text).toMatch(/hora de la Ciudad de México|Ciudad de México/);
    // The drawn signature is embedded as an image of its own size.
    const raw = pdf.toString('latin1');
    expect(raw).toMatch(/\/Subtype \/Image/);
    expect(raw).toMatch(/\/Width 300/);
    expect(raw).toMatch(/\/Height 120/);

    const [chartDocument] = await context.db
      .select()
      .from(chartDocuments)
      .where(eq(chartDocuments.id, signature.chartDocumentId));
    expect(chartDocument).toMatchObject({ kind: 'consent', patientUserId: patient.me.user.id });
    // Named in the patient's language: the title's words, the version, the day in the patient's zone.
    const day = calendarDateIn(new Date(), patient.me.user.timeZone);
    expect(chartDocument!.name).toBe(`consentimiento-atencion-telemedicina-v1-${day}.pdf`);
    const listed = await send(context.app, 'GET', `/api/v1/patients/${patient.me.user.id}/documents`, {
      session: patient.token,
    });
    expect(listed.json<{ data: { id: string; kind: string }[] }>().data).toContainEqual(
      expect.objectContaining({ id: signature.chartDocumentId, kind: 'consent' }),
    );

    const state = (await consentsOf(patient, patient.me.user.id)).json<PatientConsentsAnswer>();
    expect(state.items.find((item) => item.documentId === telemedicineId)?.state).toBe('signed');
    expect(state.requiredMissing).toBe(false);
    const [audit] = (await auditEventsOf(context.app, 'consent.signed')).slice(-1);
    expect(audit).toMatchObject({ targetId: patient.me.user.id, actorUserId: patient.me.user.id });
  });

  it('signs by typing the name, in English: the PDF is in English and carries the typed name', async () => {
    const document = await documentOf(telemedicineId, englishPatient);
    const response = await sign(englishPatient, telemedicineId, {
      versionId: document.current.id,
      language: 'en',
      method: 'typed',
      typedName: 'Jane Q. Public',
    });
    expect(response.statusCode).toBe(201);
    const signature = response.json<SignatureAnswer>();
    const text = pdfText(await pdfOf(signature.id));
    expect(text).toContain('Informed consent to care by telemedicine');
    expect(text).toContain('Jane Q. Public');
    expect(text).toContain('Name typed by the signer');
    expect(text).toContain(
      createHash('sha256')
        .update(consentSignedContent(document.current.titleEn, document.current.bodyEn))
        .digest('hex'),
    );
  });
});

describe('verification and withdrawal', () => {
  it('verifies a code publicly, then shows it withdrawn once the patient withdraws; the doctor is told', async () => {
    const document = await documentOf(telemedicineId, otherPatient);
    await createAppointment(context.app, {
      doctorId: strangerDoctor.me.user.id,
      patientId: otherPatient.me.user.id,
      startsAt: new Date(Date.now() + 3 * 24 * 60 * 60_000),
    });
    const signed = (
      await sign(otherPatient, telemedicineId, {
        versionId: document.current.id,
        language: 'es',
        method: 'typed',
        typedName: 'Otra Paciente',
      })
    ).json<SignatureAnswer>();
    const code = signed.verificationCode.toLowerCase().replace(/-/g, '');
    const verified = await send(context.app, 'GET', `/api/v1/consents/verify/${code}`);
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toMatchObject({
      valid: true,
      withdrawnAt: null,
      contentSha256: signed.contentSha256,
    });
    expect(JSON.stringify(verified.json())).not.toContain(otherPatient.me.user.email);

    const refused = await send(context.app, 'POST', `/api/v1/consent-signatures/${signed.id}/withdraw`, {
      session: patient.token,
      body: { reason: 'No es mía' },
    });
    expect(refused.statusCode).toBe(404);

    const withdrawn = await send(context.app, 'POST', `/api/v1/consent-signatures/${signed.id}/withdraw`, {
      session: otherPatient.token,
      body: { reason: 'Prefiero consultas presenciales.' },
    });
    expect(withdrawn.statusCode).toBe(200);
    expect(withdrawn.json<SignatureAnswer>().withdrawnAt).not.toBeNull();
    const again = await send(context.app, 'POST', `/api/v1/consent-signatures/${signed.id}/withdraw`, {
      session: otherPatient.token,
      body: { reason: 'Otra vez' },
    });
    expect(again.statusCode).toBe(409);

    const after = await send(context.app, 'GET', `/api/v1/consents/verify/${signed.verificationCode}`);
    expect(after.json()).toMatchObject({ valid: false, withdrawnAt: expect.any(String) });
    const [row] = await context.db
      .select()
      .from(consentSignatures)
      .where(eq(consentSignatures.id, signed.id));
    expect(row).toMatchObject({ withdrawalReason: 'Prefiero consultas presenciales.' });
    const told = await context.db
      .select()
      .from(notifications)
      .where(
        and(eq(notifications.userId, strangerDoctor.me.user.id), eq(notifications.kind, 'consent.withdrawn')),
      );
    expect(told).toHaveLength(1);
    expect(told[0]!.data).toMatchObject({ patientId: otherPatient.me.user.id, signatureId: signed.id });
    const state = (await consentsOf(strangerDoctor, otherPatient.me.user.id)).json<PatientConsentsAnswer>();
    expect(state.items.find((item) => item.documentId === telemedicineId)?.state).toBe('withdrawn');

    expect((await send(context.app, 'GET', '/api/v1/consents/verify/0000-0000-0000')).statusCode).toBe(404);
  });
});

describe('a new version asks again', () => {
  it('publishing a change makes version 2: the earlier signature is outdated and a sign of version 1 is refused', async () => {
    const created = await send(context.app, 'POST', '/api/v1/admin/consent-documents', {
      session: admin.token,
      body: {
        kind: 'procedure',
        titleEs: 'Consentimiento para la toma de muestras',
        titleEn: 'Consent to sample collection',
        bodyEs: 'Texto uno.',
        bodyEn: 'Text one.',
      },
    });
    expect(created.statusCode).toBe(201);
    const documentId = created.json<{ id: string }>().id;
    const v1 = await documentOf(documentId);
    expect(
      (
        await sign(patient, documentId, {
          versionId: v1.current.id,
          language: 'es',
          method: 'typed',
          typedName: 'P',
        })
      ).statusCode,
    ).toBe(201);
    const published = await send(
      context.app,
      'POST',
      `/api/v1/admin/consent-documents/${documentId}/versions`,
      {
        session: admin.token,
        body: {
          titleEs: 'Consentimiento para la toma de muestras',
          titleEn: 'Consent to sample collection',
          bodyEs: 'Texto dos.',
          bodyEn: 'Text two.',
        },
      },
    );
    expect(published.statusCode).toBe(200);
    expect(published.json()).toMatchObject({
      current: { version: 2 },
      versions: [{ version: 1 }, { version: 2 }],
    });
    const unchanged = await send(
      context.app,
      'POST',
      `/api/v1/admin/consent-documents/${documentId}/versions`,
      {
        session: admin.token,
        body: {
          titleEs: 'Consentimiento para la toma de muestras',
          titleEn: 'Consent to sample collection',
          bodyEs: 'Texto dos.',
          bodyEn: 'Text two.',
        },
      },
    );
    expect(unchanged.statusCode).toBe(422);

    const state = (await consentsOf(patient, patient.me.user.id)).json<PatientConsentsAnswer>();
    expect(state.items.find((item) => item.documentId === documentId)).toMatchObject({
      state: 'outdated',
      currentVersion: 2,
    });
    const before = await signatureCount();
    const stale = await sign(patient, documentId, {
      versionId: v1.current.id,
      language: 'es',
      method: 'typed',
      typedName: 'P',
    });
    expect(stale.statusCode).toBe(422);
    expect(stale.json()).toMatchObject({
      error: { code: 'UNPROCESSABLE', details: { reason: 'consents.outdatedVersion' } },
    });
    expect(await signatureCount()).toBe(before);
    const v2 = await documentOf(documentId);
    expect(
      (
        await sign(patient, documentId, {
          versionId: v2.current.id,
          language: 'es',
          method: 'typed',
          typedName: 'P',
        })
      ).statusCode,
    ).toBe(201);

    expect(
      (
        await send(context.app, 'POST', `/api/v1/admin/consent-documents/${documentId}/versions`, {
          session: doctor.token,
          body: { titleEs: 'x', titleEn: 'x', bodyEs: 'x', bodyEn: 'x' },
        })
      ).statusCode,
    ).toBe(403);
  });
});

describe('access', () => {
  it('another patient, reception, an administrator and a doctor without a care relationship get 404; reads are audited', async () => {
    const patientId = patient.me.user.id;
    for (const who of [otherPatient, staff, admin, strangerDoctor]) {
      const response = await consentsOf(who, patientId);
      expect(response.statusCode, who.me.user.email).toBe(404);
      expect(JSON.stringify(response.json())).not.toContain('contentSha256');
    }
    const [signature] = (await consentsOf(patient, patientId)).json<PatientConsentsAnswer>().signatures;
    for (const who of [otherPatient, staff, admin, strangerDoctor]) {
      const file = await send(
        context.app,
        'GET',
        `/api/v1/patients/${patientId}/documents/${signature!.chartDocumentId}/file`,
        { session: who.token },
      );
      // The documents route refuses them too (403 by its access declaration, or 404 by the chart policy).
      expect([403, 404]).toContain(file.statusCode);
    }
    const readByDoctor = await consentsOf(doctor, patientId);
    expect(readByDoctor.statusCode).toBe(200);
    const audits = await auditEventsOf(context.app, 'consent.viewed');
    expect(audits.at(-1)).toMatchObject({
      actorUserId: doctor.me.user.id,
      targetId: patientId,
      details: expect.objectContaining({ access: 'treating' }),
    });
    const log = await send(context.app, 'GET', '/api/v1/me/record-access', { session: patient.token });
    expect(log.statusCode).toBe(200);
    expect(JSON.stringify(log.json())).toContain('consent.viewed');
  });
});

describe('bad input', () => {
  it('refuses a bad PNG, an oversized one, a missing signature and an unknown version, saving nothing', async () => {
    const document = await documentOf(telemedicineId, englishPatient);
    const versionId = document.current.id;
    const before = await signatureCount();
    const filesBefore = (await context.db.select({ id: files.id }).from(files)).length;
    const brokenCrc = Buffer.from(pngHeader(20, 10));
    brokenCrc[20] = brokenCrc[20]! ^ 0xff;
    const oversize = Buffer.concat([pngHeader(20, 10), Buffer.alloc(210 * 1024)]);
    const cases: [Record<string, unknown>, number, string][] = [
      [
        {
          versionId,
          language: 'en',
          method: 'drawn',
          signaturePng: Buffer.from('GIF89a not a png').toString('base64'),
        },
        400,
        'consents.signatureNotPng',
      ],
      [
        { versionId, language: 'en', method: 'drawn', signaturePng: brokenCrc.toString('base64') },
        400,
        'consents.signatureNotPng',
      ],
      [
        { versionId, language: 'en', method: 'drawn', signaturePng: 'not base64 at all!' },
        400,
        'consents.signatureNotPng',
      ],
      [
        { versionId, language: 'en', method: 'drawn', signaturePng: oversize.toString('base64') },
        400,
        'consents.signatureTooLarge',
      ],
      [{ versionId, language: 'en', method: 'drawn' }, 400, 'consents.signatureRequired'],
      [{ versionId, language: 'en', method: 'typed' }, 400, 'validation.required'],
      [{ versionId, language: 'fr', method: 'typed', typedName: 'X' }, 400, 'validation.invalid'],
      [{ versionId: 'nope', language: 'en', method: 'typed', typedName: 'X' }, 400, 'validation.id'],
      [
        {
          versionId: '00000000-0000-4000-8000-000000000000',
          language: 'en',
          method: 'typed',
          typedName: 'X',
        },
        422,
        'consents.unknownVersion',
      ],
    ];
    for (const [body, status, message] of cases) {
      const response = await sign(englishPatient, telemedicineId, body);
      expect(response.statusCode, JSON.stringify(body).slice(0, 80)).toBe(status);
      expect(JSON.stringify(response.json())).toContain(message);
    }
    expect(await signatureCount()).toBe(before);
    expect((await context.db.select({ id: files.id }).from(files)).length).toBe(filesBefore);
    // Only patients sign: a doctor's attempt is refused before anything is read.
    expect(
      (await sign(doctor, telemedicineId, { versionId, language: 'es', method: 'typed', typedName: 'X' }))
        .statusCode,
    ).toBe(403);
  });
});
