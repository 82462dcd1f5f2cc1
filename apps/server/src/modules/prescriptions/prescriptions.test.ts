import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { doctorProfiles, emergencyAccesses, users } from '../../db/schema.js';
import {
  auditEventsOf,
  createAppointment,
  createUser,
  send,
  signIn,
  type SignedInClient,
} from '../../test/factories.js';
import { createTestContext, testAppOrigin, type TestContext } from '../../test/test-context.js';
import { generateVerificationCode } from './verification-code.js';
import { pdfText } from '../../test/pdf-text.js';

let context: TestContext;
let doctor: SignedInClient;
let otherDoctor: SignedInClient;
let emergencyDoctor: SignedInClient;
let patient: SignedInClient;
let englishPatient: SignedInClient;
let strangerPatient: SignedInClient;
let staff: SignedInClient;
let admin: SignedInClient;
let appointmentId: string;

const item = {
  medication: 'Amoxicilina 500 mg cápsulas',
  dose: '1 cápsula',
  route: 'Oral',
  frequency: 'Cada 8 horas',
  duration: '7 días',
  quantity: '21 cápsulas',
  instructions: 'Tomar con alimentos; no suspender aunque mejore. Señal: pingüino',
};

beforeAll(async () => {
  context = await createTestContext();
  const app = context.app;
  const user = async (roles: string[], language: 'es' | 'en' = 'es') =>
    signIn(app, await createUser(app, { roles, language }));
  doctor = await user(['doctor']);
  otherDoctor = await user(['doctor']);
  emergencyDoctor = await user(['doctor']);
  patient = await user(['patient']);
  englishPatient = await user(['patient'], 'en');
  strangerPatient = await user(['patient']);
  staff = await user(['staff']);
  admin = await user(['admin']);
  await context.db
    .update(users)
    .set({ dateOfBirth: '1985-04-12', name: 'Begoña Núñez Müller' })
    .where(eq(users.id, patient.me.user.id));
  const appointment = await createAppointment(app, {
    doctorId: doctor.me.user.id,
    patientId: patient.me.user.id,
    startsAt: new Date(Date.now() - 60 * 60_000),
    status: 'completed',
  });
  appointmentId = appointment.id;
  await context.db.insert(doctorProfiles).values({ userId: doctor.me.user.id, licenseNumber: 'MX-123456' });
  await createAppointment(app, {
    doctorId: doctor.me.user.id,
    patientId: englishPatient.me.user.id,
    startsAt: new Date(Date.now() + 24 * 60 * 60_000),
  });
});

afterAll(async () => {
  await context?.close();
});

type PrescriptionAnswer = {
  id: string;
  verificationCode: string;
  status: string;
  items: (typeof item & { position: number })[];
  verificationUrl: string;
  isIssuer: boolean;
  appointmentId: string | null;
};

async function issue(
  client: SignedInClient,
  patientId: string,
  body: Record<string, unknown> = { items: [item], appointmentId, notes: 'Control en una semana.' },
) {
  return send(context.app, 'POST', `/api/v1/patients/${patientId}/prescriptions`, {
    session: client.token,
    body,
  });
}

describe('issuing prescriptions', () => {
  it('lets a treating doctor prescribe, with a verification code, an audit event and the patient able to read it', async () => {
    const response = await issue(doctor, patient.me.user.id);
    expect(response.statusCode, response.body).toBe(201);
    const prescription = response.json<PrescriptionAnswer>();
    expect(prescription.verificationCode).toMatch(
      /^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/,
    );
    expect(prescription.verificationUrl).toBe(`${testAppOrigin}/verify/${prescription.verificationCode}`);
    expect(prescription.items).toEqual([{ ...item, position: 1 }]);
    expect(prescription.appointmentId).toBe(appointmentId);
    expect(prescription.isIssuer).toBe(true);
    const issued = (await auditEventsOf(context.app, 'prescription.issued')).at(-1);
    expect(issued).toMatchObject({
      targetType: 'patient',
      targetId: patient.me.user.id,
      actorUserId: doctor.me.user.id,
    });
    expect(issued?.details).toMatchObject({ prescriptionId: prescription.id, access: 'treating' });

    const own = await send(context.app, 'GET', `/api/v1/patients/${patient.me.user.id}/prescriptions`, {
      session: patient.token,
    });
    expect(own.statusCode).toBe(200);
    expect(own.json<{ items: { id: string; medications: string[] }[] }>().items).toEqual([
      expect.objectContaining({ id: prescription.id, medications: [item.medication], itemsCount: 1 }),
    ]);
    const one = await send(context.app, 'GET', `/api/v1/prescriptions/${prescription.id}`, {
      session: patient.token,
    });
    expect(one.statusCode).toBe(200);
    expect(one.json<PrescriptionAnswer>().isIssuer).toBe(false);
    const viewed = (await auditEventsOf(context.app, 'prescription.viewed')).at(-1);
    expect(viewed).toMatchObject({
      targetType: 'patient',
      targetId: patient.me.user.id,
      actorUserId: patient.me.user.id,
    });
    expect(viewed?.details).toMatchObject({
      prescriptionId: prescription.id,
      access: 'self',
      format: 'json',
    });
  });

  it('answers 404 to a doctor without a relationship, and to staff and admins', async () => {
    expect((await issue(otherDoctor, patient.me.user.id, { items: [item] })).statusCode).toBe(404);
    const created = (await issue(doctor, patient.me.user.id)).json<PrescriptionAnswer>();
    for (const client of [otherDoctor, staff, admin]) {
      const list = await send(context.app, 'GET', `/api/v1/patients/${patient.me.user.id}/prescriptions`, {
        session: client.token,
      });
      expect(list.statusCode).toBe(404);
      const one = await send(context.app, 'GET', `/api/v1/prescriptions/${created.id}`, {
        session: client.token,
      });
      expect(one.statusCode).toBe(404);
      const pdf = await send(context.app, 'GET', `/api/v1/prescriptions/${created.id}/pdf`, {
        session: client.token,
      });
      expect(pdf.statusCode).toBe(404);
    }
    // Staff and admins cannot prescribe at all (no permission: 403 from the route's declaration).
    expect((await issue(staff, patient.me.user.id, { items: [item] })).statusCode).toBe(403);
  });

  it('lets a doctor under a live emergency access prescribe and read, and says so in the audit', async () => {
    expect((await issue(emergencyDoctor, strangerPatient.me.user.id, { items: [item] })).statusCode).toBe(
      404,
    );
    const [access] = await context.db
      .insert(emergencyAccesses)
      .values({
        doctorUserId: emergencyDoctor.me.user.id,
        patientUserId: strangerPatient.me.user.id,
        reason: 'Paciente inconsciente en urgencias',
        expiresAt: new Date(Date.now() + 60 * 60_000),
      })
      .returning();
    const response = await issue(emergencyDoctor, strangerPatient.me.user.id, { items: [item] });
    expect(response.statusCode, response.body).toBe(201);
    const issued = (await auditEventsOf(context.app, 'prescription.issued')).at(-1);
    expect(issued?.details).toMatchObject({ access: 'emergency', emergencyAccessId: access!.id });
    const list = await send(
      context.app,
      'GET',
      `/api/v1/patients/${strangerPatient.me.user.id}/prescriptions`,
      {
        session: emergencyDoctor.token,
      },
    );
    expect(list.statusCode).toBe(200);
    // An expired access closes the record again.
    await context.db
      .update(emergencyAccesses)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(emergencyAccesses.id, access!.id));
    const again = await issue(emergencyDoctor, strangerPatient.me.user.id, { items: [item] });
    expect(again.statusCode).toBe(404);
  });

  it('keeps patients to their own prescriptions', async () => {
    const created = (await issue(doctor, patient.me.user.id)).json<PrescriptionAnswer>();
    const list = await send(context.app, 'GET', `/api/v1/patients/${patient.me.user.id}/prescriptions`, {
      session: strangerPatient.token,
    });
    expect(list.statusCode).toBe(404);
    const one = await send(context.app, 'GET', `/api/v1/prescriptions/${created.id}`, {
      session: strangerPatient.token,
    });
    expect(one.statusCode).toBe(404);
    const pdf = await send(context.app, 'GET', `/api/v1/prescriptions/${created.id}/pdf`, {
      session: strangerPatient.token,
    });
    expect(pdf.statusCode).toBe(404);
  });

  it('refuses an appointment that is not between this doctor and patient', async () => {
    const foreign = await createAppointment(context.app, {
      doctorId: otherDoctor.me.user.id,
      patientId: patient.me.user.id,
      startsAt: new Date(Date.now() + 3 * 24 * 60 * 60_000),
    });
    const response = await issue(doctor, patient.me.user.id, { items: [item], appointmentId: foreign.id });
    expect(response.statusCode).toBe(404);
  });

  it.each([
    ['no items', { items: [] }],
    ['eleven items', { items: Array.from({ length: 11 }, () => item) }],
    ['a missing dose', { items: [{ ...item, dose: undefined }] }],
    ['a blank medication', { items: [{ ...item, medication: '   ' }] }],
    ['a huge medication name', { items: [{ ...item, medication: 'x'.repeat(201) }] }],
    ['huge instructions', { items: [{ ...item, instructions: 'x'.repeat(501) }] }],
    ['huge notes', { items: [item], notes: 'x'.repeat(2001) }],
    ['a bad appointment id', { items: [item], appointmentId: 'not-a-uuid' }],
  ])('answers 400 for %s', async (_label, body) => {
    const response = await issue(doctor, patient.me.user.id, body);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json<{ error: { code: string } }>().error.code).toBe('VALIDATION_FAILED');
  });

  it('answers 400 for a malformed patient or prescription id', async () => {
    expect((await issue(doctor, 'not-a-uuid', { items: [item] })).statusCode).toBe(400);
    const one = await send(context.app, 'GET', '/api/v1/prescriptions/123', { session: doctor.token });
    expect(one.statusCode).toBe(400);
  });
});

describe('the prescription PDF', () => {
  it("is a PDF in the patient's language with the code, the doctor's license and the accents", async () => {
    const created = (await issue(doctor, patient.me.user.id)).json<PrescriptionAnswer>();
    const response = await send(context.app, 'GET', `/api/v1/prescriptions/${created.id}/pdf`, {
      session: doctor.token,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="receta-${created.verificationCode}.pdf"`,
    );
    const pdf = response.rawPayload;
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = pdfText(pdf);
    expect(text).toContain(created.verificationCode);
    expect(text).toContain('Receta médica');
    expect(text).toContain('Begoña Núñez Müller');
    expect(text).toContain('pingüino');
    expect(text).toContain('MX-123456');
    expect(text).toContain(`/verify/${created.verificationCode}`);
    const viewed = (await auditEventsOf(context.app, 'prescription.viewed')).at(-1);
    expect(viewed?.details).toMatchObject({ prescriptionId: created.id, format: 'pdf', access: 'issuer' });
  });

  it('is in English for an English-speaking patient, whoever downloads it', async () => {
    const created = (
      await issue(doctor, englishPatient.me.user.id, { items: [item] })
    ).json<PrescriptionAnswer>();
    const response = await send(context.app, 'GET', `/api/v1/prescriptions/${created.id}/pdf`, {
      session: englishPatient.token,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="prescription-${created.verificationCode}.pdf"`,
    );
    const text = pdfText(response.rawPayload);
    expect(text).toContain('Medical prescription');
    expect(text).not.toContain('Receta médica');
  });
});

describe('cancelling and the public verification', () => {
  it('verifies a valid code without any patient data, then shows it cancelled after the issuer cancels', async () => {
    const created = (await issue(doctor, patient.me.user.id)).json<PrescriptionAnswer>();
    const check = await send(
      context.app,
      'GET',
      `/api/v1/prescriptions/verify/${created.verificationCode.toLowerCase().replace(/-/g, '')}`,
    );
    expect(check.statusCode).toBe(200);
    const answer = check.json<Record<string, unknown>>();
    expect(Object.keys(answer).sort()).toEqual(['doctor', 'issuedAt', 'itemsCount', 'status', 'valid']);
    expect(Object.keys(answer.doctor as object).sort()).toEqual(['licenseNumber', 'name']);
    expect(answer).toMatchObject({
      valid: true,
      status: 'active',
      itemsCount: 1,
      doctor: { name: doctor.me.user.name },
    });
    expect(check.body).not.toContain(patient.me.user.name);
    expect(check.body).not.toContain(patient.me.user.id);
    expect(check.body).not.toContain('Amoxicilina');
    const verified = (await auditEventsOf(context.app, 'prescription.verified')).at(-1);
    expect(verified).toMatchObject({ targetType: 'prescription', targetId: created.id, actorUserId: null });

    // Only the issuer cancels.
    for (const client of [otherDoctor, patient]) {
      const refused = await send(context.app, 'POST', `/api/v1/prescriptions/${created.id}/cancel`, {
        session: client.token,
        body: { reason: 'No corresponde' },
      });
      expect([403, 404]).toContain(refused.statusCode);
    }
    const tooShort = await send(context.app, 'POST', `/api/v1/prescriptions/${created.id}/cancel`, {
      session: doctor.token,
      body: { reason: 'x' },
    });
    expect(tooShort.statusCode).toBe(400);
    const cancelled = await send(context.app, 'POST', `/api/v1/prescriptions/${created.id}/cancel`, {
      session: doctor.token,
      body: { reason: 'Dosis equivocada' },
    });
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toMatchObject({ status: 'cancelled', cancellationReason: 'Dosis equivocada' });
    const event = (await auditEventsOf(context.app, 'prescription.cancelled')).at(-1);
    expect(event).toMatchObject({ targetType: 'patient', targetId: patient.me.user.id });
    expect(event?.details).toMatchObject({ prescriptionId: created.id });
    const twice = await send(context.app, 'POST', `/api/v1/prescriptions/${created.id}/cancel`, {
      session: doctor.token,
      body: { reason: 'Dosis equivocada' },
    });
    expect(twice.statusCode).toBe(409);

    const after = await send(context.app, 'GET', `/api/v1/prescriptions/verify/${created.verificationCode}`);
    expect(after.json()).toMatchObject({ valid: false, status: 'cancelled' });
    const pdf = await send(context.app, 'GET', `/api/v1/prescriptions/${created.id}/pdf`, {
      session: patient.token,
    });
    expect(pdf.statusCode, pdf.body.slice(0, 300)).toBe(200);
    expect(pdfText(pdf.rawPayload)).toContain('ANULADA');
  });

  it('answers 404 with a clear message for an unknown or malformed code', async () => {
    for (const code of [generateVerificationCode(), 'hello', 'UUUU-UUUU-UUUU']) {
      const response = await send(context.app, 'GET', `/api/v1/prescriptions/verify/${code}`);
      expect(response.statusCode).toBe(404);
      expect(response.json<{ error: { message: string } }>().error.message).toMatch(/verification code/);
    }
    const tooLong = await send(context.app, 'GET', `/api/v1/prescriptions/verify/${'A'.repeat(40)}`);
    expect(tooLong.statusCode).toBe(400);
  });

  it('generates distinct codes in the Crockford alphabet', () => {
    const codes = new Set(Array.from({ length: 2000 }, () => generateVerificationCode()));
    expect(codes.size).toBe(2000);
    for (const code of codes) {
      expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
    }
  });
});
