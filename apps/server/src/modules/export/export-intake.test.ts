import type { Bundle, QuestionnaireResponse } from '@medplum/fhirtypes';
import { appointmentSchema } from '@telemedicina/shared/appointment';
import { intakeFormListSchema } from '@telemedicina/shared/intake';
import { answersOf } from '@telemedicina/shared/intake-logic';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClock } from '../../test/booking-fixtures.js';
import { createUser, send, signIn, type SignedInClient } from '../../test/factories.js';
import { pdfText } from '../../test/pdf-text.js';
import { choice, createDoctorWithPhq9, phq9Answers } from '../../test/intake-fixtures.js';
import { createTestContext, type TestContext } from '../../test/test-context.js';
import { readZip, type ReadZipEntry } from '../../test/zip-reader.js';

// Wednesday 2026-03-25 10:00 UTC; the doctor (Madrid) has PHQ-9 attached; patients in Mexico City.
const clock = createClock('2026-03-25T10:00:00Z');
let context: TestContext;
let doctorId: string;

beforeAll(async () => {
  context = await createTestContext({ now: clock.now });
  doctorId = (await createDoctorWithPhq9(context.app)).id;
});

afterAll(async () => {
  await context?.close();
});

function entry(entries: ReadZipEntry[], name: string): Buffer {
  const found = entries.find((candidate) => candidate.name === name);
  if (found === undefined) {
    throw new Error(`no ${name} in ${entries.map((candidate) => candidate.name).join(', ')}`);
  }
  return found.data;
}

/** Books with the PHQ-9 doctor and sends the form: items 1–8 "several days" (1), item 9 as given. */
async function answerPhq9(patient: SignedInClient, startsAt: string, item9: string): Promise<string> {
  const booked = await send(context.app, 'POST', '/api/v1/appointments', {
    session: patient.token,
    body: { doctorId, startsAt, reason: 'Control' },
  });
  expect(booked.statusCode, booked.body).toBe(201);
  const appointment = appointmentSchema.parse(booked.json());
  const list = await send(context.app, 'GET', `/api/v1/appointments/${appointment.id}/intake-forms`, {
    session: patient.token,
  });
  const [form] = intakeFormListSchema.parse(list.json()).data;
  const answers = { 'phq9-difficulty': choice('somewhat'), ...phq9Answers('1', item9) };
  const submitted = await send(context.app, 'POST', `/api/v1/intake-responses/${form?.id}/submit`, {
    session: patient.token,
    body: { answers },
  });
  expect(submitted.statusCode, submitted.body).toBe(200);
  return form!.id;
}

async function exportOwn(patient: SignedInClient): Promise<ReadZipEntry[]> {
  const response = await send(context.app, 'GET', '/api/v1/me/record/export', { session: patient.token });
  expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
  return readZip(response.rawPayload);
}

describe('record export: intake responses', () => {
  it('carries the responses as a FHIR Bundle beside record.json, with the version each answers', async () => {
    clock.set('2026-03-25T10:00:00Z');
    const patient = await signIn(context.app, await createUser(context.app, { roles: ['patient'] }));
    const responseId = await answerPhq9(patient, '2026-03-27T09:00:00Z', '2');
    const entries = await exportOwn(patient);
    const bundle = JSON.parse(entry(entries, 'fhir/questionnaire-responses.json').toString('utf8')) as Bundle;
    expect(bundle).toMatchObject({ resourceType: 'Bundle', type: 'collection' });
    const resources = (bundle.entry ?? []).map((item) => item.resource);
    const questionnaire = resources.find((resource) => resource?.resourceType === 'Questionnaire');
    const response = resources.find(
      (resource): resource is QuestionnaireResponse => resource?.resourceType === 'QuestionnaireResponse',
    );
    expect(questionnaire).toMatchObject({ url: expect.stringContaining('phq9') });
    expect(response).toMatchObject({
      id: responseId,
      status: 'completed',
      subject: { reference: `Patient/${patient.me.user.id}` },
      questionnaire: 'urn:telemedicina:questionnaire:phq9|1',
    });
    expect(Object.keys(answersOf(response ?? {}))).toHaveLength(10);
  });

  it('shows each questionnaire in the readable summary: title, date in the patient zone, score, band, answers', async () => {
    clock.set('2026-03-25T16:30:00Z');
    const patient = await signIn(context.app, await createUser(context.app, { roles: ['patient'] }));
    await answerPhq9(patient, '2026-03-27T10:00:00Z', '2');
    const text = pdfText(entry(await exportOwn(patient), 'resumen-historia-clinica.pdf'));
    expect(text).toContain('Cuestionarios antes de las consultas');
    expect(text).toMatch(/PHQ-9/);
    // 16:30 UTC is 10:30 in Mexico City, the patient's zone.
    expect(text).toMatch(/Enviado el 25 de marzo de 2026 a las 10:30/);
    // Eight answers of 1 and item 9 at 2: 10 of 27, moderate.
    expect(text).toContain('Puntuación 10 de 27 · moderada');
    expect(text).toContain('pensamientos de hacerse daño');
    expect(text).toMatch(/Varios días/);
    expect(text).toContain('fhir/questionnaire-responses.json');
  });

  it('names fhir/questionnaire-responses.json in the README, in the patient’s language, only when it is there', async () => {
    clock.set('2026-03-25T16:30:00Z');
    const patient = await signIn(context.app, await createUser(context.app, { roles: ['patient'] }));
    await answerPhq9(patient, '2026-03-30T09:00:00Z', '0');
    const readme = entry(await exportOwn(patient), 'README.txt').toString('utf8');
    expect(readme).toContain('  fhir/questionnaire-responses.json\r\n');
    expect(readme).toContain('Los cuestionarios que usted respondió antes de sus consultas (1)');

    const english = await signIn(
      context.app,
      await createUser(context.app, { roles: ['patient'], language: 'en' }),
    );
    await answerPhq9(english, '2026-03-30T10:00:00Z', '0');
    const readmeEn = entry(await exportOwn(english), 'README.txt').toString('utf8');
    expect(readmeEn).toContain('  fhir/questionnaire-responses.json\r\n');
    expect(readmeEn).toContain('The questionnaires you answered before your visits (1)');

    const none = await signIn(context.app, await createUser(context.app, { roles: ['patient'] }));
    expect(entry(await exportOwn(none), 'README.txt').toString('utf8')).not.toContain('questionnaire');
  });

  it('in English for an English-speaking patient; and says none when there are none', async () => {
    clock.set('2026-03-25T10:00:00Z');
    const english = await signIn(
      context.app,
      await createUser(context.app, { roles: ['patient'], language: 'en' }),
    );
    await answerPhq9(english, '2026-03-28T09:00:00Z', '0');
    const text = pdfText(entry(await exportOwn(english), 'medical-record-summary.pdf'));
    expect(text).toContain('Questionnaires before your visits');
    expect(text).toContain('Score 8 of 27 · mild');
    expect(text).not.toContain('thoughts of hurting yourself');
    expect(text).toContain('Little interest or pleasure in doing things: Several days');

    const none = await signIn(context.app, await createUser(context.app, { roles: ['patient'] }));
    const entries = await exportOwn(none);
    expect(entries.map((item) => item.name)).not.toContain('fhir/questionnaire-responses.json');
    expect(pdfText(entry(entries, 'resumen-historia-clinica.pdf'))).toContain(
      'No ha respondido ningún cuestionario.',
    );
  });
});
