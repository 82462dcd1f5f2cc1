import type { QuestionnaireResponse } from '@medplum/fhirtypes';
import { errorResponseSchema } from '@telemedicina/shared/api';
import { appointmentSchema } from '@telemedicina/shared/appointment';
import {
  intakeFormListSchema,
  intakeProblemsDetailsSchema,
  intakeResponseDetailSchema,
} from '@telemedicina/shared/intake';
import { answersOf } from '@telemedicina/shared/intake-logic';
import type { RecordAccessPage } from '@telemedicina/shared/records';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notifications, questionnaireResponses } from '../../db/schema.js';
import { createClock, createDoctor } from '../../test/booking-fixtures.js';
import {
  auditEventsOf,
  createUser,
  latestEmail,
  send,
  signIn,
  type SignedInClient,
} from '../../test/factories.js';
import { choice, createDoctorWithPhq9, phq9Answers } from '../../test/intake-fixtures.js';
import { createTestContext, type TestContext } from '../../test/test-context.js';

// Wednesday 2026-03-25 10:00 UTC; the doctor (Madrid) opens 09:00–13:00 every day.
const clock = createClock('2026-03-25T10:00:00Z');
let context: TestContext;
let patient: SignedInClient & { email: string };
let doctor: SignedInClient;
let otherDoctor: SignedInClient;
let otherPatient: SignedInClient;
let reception: SignedInClient;
let admin: SignedInClient;
let appointmentId: string;
let responseId: string;

function as(client: SignedInClient, method: 'GET' | 'PUT' | 'POST', url: string, body?: unknown) {
  return send(context.app, method, `/api/v1${url}`, { session: client.token, body });
}

beforeAll(async () => {
  context = await createTestContext({ now: clock.now });
  const doctorUser = await createDoctorWithPhq9(context.app);
  doctor = await signIn(context.app, doctorUser);
  otherDoctor = await signIn(context.app, await createDoctor(context.app));
  const patientUser = await createUser(context.app, { roles: ['patient'], language: 'en' });
  patient = { ...(await signIn(context.app, patientUser)), email: patientUser.email };
  otherPatient = await signIn(context.app, await createUser(context.app, { roles: ['patient'] }));
  reception = await signIn(context.app, await createUser(context.app, { roles: ['staff'] }));
  admin = await signIn(context.app, await createUser(context.app, { roles: ['admin'] }));
});

afterAll(async () => {
  await context?.close();
});

describe('forms due at booking', () => {
  it('creates the in-progress PHQ-9 response for the exact version and tells the patient in their language', async () => {
    const booked = await as(patient, 'POST', '/appointments', {
      doctorId: doctor.me.user.id,
      startsAt: '2026-03-27T08:00:00Z',
      reason: 'Control',
    });
    expect(booked.statusCode, booked.body).toBe(201);
    appointmentId = appointmentSchema.parse(booked.json()).id;

    const list = await as(patient, 'GET', `/appointments/${appointmentId}/intake-forms`);
    expect(list.statusCode, list.body).toBe(200);
    const forms = intakeFormListSchema.parse(list.json()).data;
    expect(forms).toHaveLength(1);
    expect(forms[0]).toMatchObject({
      status: 'in-progress',
      questionnaireVersion: 1,
      title: { en: 'Patient Health Questionnaire (PHQ-9)' },
      score: null,
    });
    responseId = forms[0]?.id ?? '';

    const email = await latestEmail(context.app, patient.email, 'intake-forms-due');
    expect(email?.subject).toContain('Forms before your visit');
    const [notice] = await context.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, patient.me.user.id), eq(notifications.kind, 'intake.formsDue')));
    expect(notice?.data).toMatchObject({ appointmentId, count: 1 });
  });

  it('creates nothing for a doctor without forms', async () => {
    const booked = await as(patient, 'POST', '/appointments', {
      doctorId: otherDoctor.me.user.id,
      startsAt: '2026-03-27T09:00:00Z',
    });
    // The other doctor has no hours: the booking itself is refused, and no form appears anywhere.
    expect(booked.statusCode).toBe(400);
    const rows = await context.db
      .select()
      .from(questionnaireResponses)
      .where(eq(questionnaireResponses.patientUserId, patient.me.user.id));
    expect(rows).toHaveLength(1);
  });
});

describe('answering', () => {
  it('autosaves the answers so far, and a reopened form shows them', async () => {
    const saved = await as(patient, 'PUT', `/intake-responses/${responseId}/answers`, {
      answers: { 'phq9-1': choice('1'), 'phq9-2': choice('2') },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const again = intakeResponseDetailSchema.parse(
      (await as(patient, 'GET', `/intake-responses/${responseId}`)).json(),
    );
    expect(again.status).toBe('in-progress');
    expect(answersOf(again.response as unknown as QuestionnaireResponse)).toEqual({
      'phq9-1': choice('1'),
      'phq9-2': choice('2'),
    });
    expect(again.response).toMatchObject({ questionnaire: 'urn:telemedicina:questionnaire:phq9|1' });
  });

  it('refuses answers that do not fit the version with 422 naming the item, and saves nothing', async () => {
    const bad = await as(patient, 'PUT', `/intake-responses/${responseId}/answers`, {
      answers: { 'phq9-1': choice('7'), 'phq9-3': [{ valueInteger: 2 }], nope: choice('1') },
    });
    expect(bad.statusCode).toBe(422);
    const error = errorResponseSchema.parse(bad.json()).error;
    expect(error.code).toBe('UNPROCESSABLE');
    const { problems } = intakeProblemsDetailsSchema.parse(error.details);
    expect(problems.map((problem) => [problem.linkId, problem.problem])).toEqual([
      ['phq9-1', 'notAnOption'],
      ['phq9-3', 'wrongType'],
      ['nope', 'unknownItem'],
    ]);
    // In the patient's language (English), naming the question.
    expect(error.message).toBe(
      'The answer to “Little interest or pleasure in doing things” is not one of the options.',
    );
    const detail = intakeResponseDetailSchema.parse(
      (await as(patient, 'GET', `/intake-responses/${responseId}`)).json(),
    );
    expect(answersOf(detail.response as unknown as QuestionnaireResponse)).toEqual({
      'phq9-1': choice('1'),
      'phq9-2': choice('2'),
    });
  });

  it('refuses a submit with required items missing, naming them, and keeps the response open', async () => {
    const bad = await as(patient, 'POST', `/intake-responses/${responseId}/submit`, {
      answers: { 'phq9-1': choice('1') },
    });
    expect(bad.statusCode).toBe(422);
    const { problems } = intakeProblemsDetailsSchema.parse(
      errorResponseSchema.parse(bad.json()).error.details,
    );
    expect(problems.map((problem) => problem.linkId)).toEqual([
      'phq9-2',
      'phq9-3',
      'phq9-4',
      'phq9-5',
      'phq9-6',
      'phq9-7',
      'phq9-8',
      'phq9-9',
    ]);
    expect(problems.every((problem) => problem.problem === 'required')).toBe(true);
    const [row] = await context.db
      .select()
      .from(questionnaireResponses)
      .where(eq(questionnaireResponses.id, responseId));
    expect(row).toMatchObject({ status: 'in-progress', completedAt: null, score: null });
    expect(answersOf(row?.resource ?? {})).toEqual({ 'phq9-1': choice('1'), 'phq9-2': choice('2') });
  });

  it('submits: completed with score, band and the item-9 flag; a sent form is not changed again', async () => {
    const submitted = await as(patient, 'POST', `/intake-responses/${responseId}/submit`, {
      answers: { ...phq9Answers('1', '2'), 'phq9-difficulty': choice('somewhat') },
    });
    expect(submitted.statusCode, submitted.body).toBe(200);
    expect(intakeResponseDetailSchema.parse(submitted.json())).toMatchObject({
      status: 'completed',
      score: { instrument: 'phq9', score: 10, severity: 'moderate', selfHarmFlag: true },
      response: { status: 'completed' },
    });
    const again = await as(patient, 'PUT', `/intake-responses/${responseId}/answers`, {
      answers: { 'phq9-1': choice('0') },
    });
    expect(again.statusCode).toBe(409);
    const events = await auditEventsOf(context.app, 'record.updated');
    expect(events.at(-1)?.details).toMatchObject({ section: 'intakeResponse', responseId, submitted: true });
  });
});

describe('who reads a response', () => {
  it('lets the treating doctor read the score and the answers, audited and in the patient access log', async () => {
    const list = await as(doctor, 'GET', `/appointments/${appointmentId}/intake-forms`);
    expect(list.statusCode, list.body).toBe(200);
    expect(intakeFormListSchema.parse(list.json()).data[0]?.score).toMatchObject({
      score: 10,
      severity: 'moderate',
      selfHarmFlag: true,
    });
    const read = await as(doctor, 'GET', `/intake-responses/${responseId}`);
    expect(read.statusCode).toBe(200);
    const chart = await as(doctor, 'GET', `/patients/${patient.me.user.id}/intake-responses`);
    expect(intakeFormListSchema.parse(chart.json()).data).toHaveLength(1);

    const viewed = (await auditEventsOf(context.app, 'record.viewed')).filter(
      (event) => event.actorUserId === doctor.me.user.id,
    );
    expect(viewed.map((event) => (event.details as { section: string }).section)).toEqual([
      'intakeForms',
      'intakeResponse',
      'intakeForms',
    ]);
    const log = (await as(patient, 'GET', '/me/record-access?pageSize=100')).json<RecordAccessPage>();
    expect(
      log.data.some((entry) => entry.actor?.id === doctor.me.user.id && entry.action === 'record.viewed'),
    ).toBe(true);
  });

  it('hides it from another patient, reception, an administrator and a doctor without a care relationship', async () => {
    for (const outsider of [otherPatient, reception, admin, otherDoctor]) {
      const read = await as(outsider, 'GET', `/intake-responses/${responseId}`);
      const list = await as(outsider, 'GET', `/appointments/${appointmentId}/intake-forms`);
      const chart = await as(outsider, 'GET', `/patients/${patient.me.user.id}/intake-responses`);
      expect([read.statusCode, list.statusCode, chart.statusCode]).toEqual(
        outsider === otherPatient || outsider === otherDoctor ? [404, 404, 404] : [403, 403, 403],
      );
    }
    // Nor may anyone but the patient answer.
    const write = await as(doctor, 'PUT', `/intake-responses/${responseId}/answers`, { answers: {} });
    expect(write.statusCode).toBe(403);
    const otherWrite = await as(otherPatient, 'PUT', `/intake-responses/${responseId}/answers`, {
      answers: {},
    });
    expect(otherWrite.statusCode).toBe(404);
  });

  it('answers 400 for a body that is not answers', async () => {
    const bad = await as(patient, 'PUT', `/intake-responses/${responseId}/answers`, {
      answers: { 'phq9-1': [{ valueCoding: { code: '1' }, valueString: 'x' }] },
    });
    expect(bad.statusCode).toBe(400);
  });
});
