import { appointmentSchema } from '@telemedicina/shared/appointment';
import { intakeFormListSchema, intakeResponseDetailSchema } from '@telemedicina/shared/intake';
import { itemText } from '@telemedicina/shared/intake-logic';
import {
  definitionProblemSchema,
  questionnaireDetailSchema,
  questionnaireListSchema,
} from '@telemedicina/shared/questionnaire-builder';
import type { QuestionnaireItem } from '@medplum/fhirtypes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createClock, createDoctor, everyDay } from '../../test/booking-fixtures.js';
import { auditEventsOf, createUser, send, signIn, type SignedInClient } from '../../test/factories.js';
import { createTestContext, type TestContext } from '../../test/test-context.js';
import { findQuestionnaireBySystemKey } from './questionnaires.repository.js';
import { english, sampleQuestionnaire } from './questionnaires-test-support.js';

// Wednesday 2026-03-25 10:00 UTC; the doctor opens 09:00–13:00 every day.
const clock = createClock('2026-03-25T10:00:00Z');
let context: TestContext;
let admin: SignedInClient;
let adminEn: SignedInClient;
let doctor: SignedInClient;
let otherDoctor: SignedInClient;
let patient: SignedInClient;
let reception: SignedInClient;
let phq9Id: string;

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
function as(client: SignedInClient, method: Method, url: string, body?: unknown) {
  return send(context.app, method, `/api/v1${url}`, { session: client.token, body });
}

const problemsOf = (body: unknown) =>
  z
    .object({
      error: z.object({
        message: z.string(),
        details: z.object({ problems: z.array(definitionProblemSchema) }),
      }),
    })
    .parse(body).error;

beforeAll(async () => {
  context = await createTestContext({ now: clock.now });
  admin = await signIn(context.app, await createUser(context.app, { roles: ['admin'] }));
  adminEn = await signIn(context.app, await createUser(context.app, { roles: ['admin'], language: 'en' }));
  doctor = await signIn(context.app, await createDoctor(context.app, { rules: everyDay('09:00', '13:00') }));
  otherDoctor = await signIn(context.app, await createDoctor(context.app));
  patient = await signIn(context.app, await createUser(context.app, { roles: ['patient'], language: 'en' }));
  reception = await signIn(context.app, await createUser(context.app, { roles: ['staff'] }));
  phq9Id = (await findQuestionnaireBySystemKey(context.db, 'phq9'))?.id ?? '';
});

afterAll(async () => {
  await context?.close();
});

describe('who builds questionnaires', () => {
  it('refuses patients and reception (403)', async () => {
    for (const client of [patient, reception]) {
      expect((await as(client, 'GET', '/questionnaires')).statusCode).toBe(403);
      const created = await as(client, 'POST', '/questionnaires', { questionnaire: sampleQuestionnaire() });
      expect(created.statusCode).toBe(403);
      expect(
        (await as(client, 'POST', `/questionnaires/${phq9Id}/assignments`, { doctorId: doctor.me.user.id }))
          .statusCode,
      ).toBe(403);
    }
  });

  it("lets a doctor see the shipped ones and their own, never another doctor's nor the clinic's", async () => {
    const clinic = await as(admin, 'POST', '/questionnaires', { questionnaire: sampleQuestionnaire() });
    expect(clinic.statusCode, clinic.body).toBe(201);
    const clinicId = questionnaireDetailSchema.parse(clinic.json()).id;
    const own = await as(doctor, 'POST', '/questionnaires', { questionnaire: sampleQuestionnaire() });
    expect(own.statusCode, own.body).toBe(201);
    const ownDetail = questionnaireDetailSchema.parse(own.json());
    expect(ownDetail).toMatchObject({
      owner: { id: doctor.me.user.id },
      version: 1,
      canEdit: true,
      shipped: false,
    });

    const seen = questionnaireListSchema.parse((await as(doctor, 'GET', '/questionnaires')).json()).data;
    expect(seen.map((row) => row.id).sort()).toEqual(
      [ownDetail.id, phq9Id, seen.find((row) => row.title.en.includes('GAD-7'))?.id].sort(),
    );
    expect(seen.find((row) => row.id === phq9Id)).toMatchObject({ shipped: true, canEdit: false });
    const all = questionnaireListSchema.parse((await as(admin, 'GET', '/questionnaires')).json()).data;
    expect(all.map((row) => row.id)).toEqual(expect.arrayContaining([clinicId, ownDetail.id, phq9Id]));

    // Another doctor's and the clinic's questionnaires do not exist for this doctor.
    expect((await as(otherDoctor, 'GET', `/questionnaires/${ownDetail.id}`)).statusCode).toBe(404);
    const foreign = await as(otherDoctor, 'POST', `/questionnaires/${ownDetail.id}/versions`, {
      questionnaire: sampleQuestionnaire(),
    });
    expect(foreign.statusCode).toBe(404);
    expect((await as(doctor, 'PATCH', `/questionnaires/${clinicId}`, { archived: true })).statusCode).toBe(
      404,
    );
  });

  it('keeps the shipped instruments read-only for everyone: assigned, not edited', async () => {
    for (const client of [doctor, admin]) {
      const edited = await as(client, 'POST', `/questionnaires/${phq9Id}/versions`, {
        questionnaire: sampleQuestionnaire(),
      });
      expect(edited.statusCode).toBe(403);
      expect((await as(client, 'PATCH', `/questionnaires/${phq9Id}`, { archived: true })).statusCode).toBe(
        403,
      );
    }
    const read = questionnaireDetailSchema.parse(
      (await as(doctor, 'GET', `/questionnaires/${phq9Id}`)).json(),
    );
    expect(read.version).toBe(1);
  });

  it('lets a doctor assign to themselves only, and the clinic to a specialty or any doctor; audited', async () => {
    expect(
      (
        await as(doctor, 'POST', `/questionnaires/${phq9Id}/assignments`, {
          doctorId: otherDoctor.me.user.id,
        })
      ).statusCode,
    ).toBe(403);
    const specialty = await as(admin, 'POST', '/specialties', {
      name: { es: 'Psicología', en: 'Psychology' },
      active: true,
    });
    const specialtyId = z.object({ id: z.uuid() }).parse(specialty.json()).id;
    expect(
      (await as(doctor, 'POST', `/questionnaires/${phq9Id}/assignments`, { specialtyId })).statusCode,
    ).toBe(403);

    const self = await as(doctor, 'POST', `/questionnaires/${phq9Id}/assignments`, {
      doctorId: doctor.me.user.id,
    });
    expect(self.statusCode, self.body).toBe(200);
    const bySpecialty = await as(admin, 'POST', `/questionnaires/${phq9Id}/assignments`, { specialtyId });
    const assignments = questionnaireDetailSchema.parse(bySpecialty.json()).assignments;
    expect(assignments).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ doctor: { id: doctor.me.user.id, name: doctor.me.user.name } }),
        expect.objectContaining({
          specialty: { id: specialtyId, name: { es: 'Psicología', en: 'Psychology' } },
        }),
      ]),
    );
    const specialtyAssignment = assignments.find((assignment) => assignment.specialty !== null)?.id ?? '';
    const doctorAssignment = assignments.find((assignment) => assignment.doctor !== null)?.id ?? '';
    // A doctor cannot remove the clinic's assignment to a specialty; the clinic can.
    expect(
      (await as(doctor, 'DELETE', `/questionnaires/${phq9Id}/assignments/${specialtyAssignment}`)).statusCode,
    ).toBe(403);
    expect(
      (await as(admin, 'DELETE', `/questionnaires/${phq9Id}/assignments/${specialtyAssignment}`)).statusCode,
    ).toBe(200);
    const removed = await as(doctor, 'DELETE', `/questionnaires/${phq9Id}/assignments/${doctorAssignment}`);
    expect(questionnaireDetailSchema.parse(removed.json()).assignments).toEqual([]);

    expect(await auditEventsOf(context.app, 'questionnaire.assigned')).toHaveLength(2);
    const unassigned = await auditEventsOf(context.app, 'questionnaire.unassigned');
    expect(unassigned.map((event) => event.targetId)).toEqual([phq9Id, phq9Id]);
    expect(await auditEventsOf(context.app, 'questionnaire.created')).toHaveLength(2);
  });
});

describe('checking a questionnaire before publishing', () => {
  const withItems = (items: QuestionnaireItem[]) => ({
    questionnaire: { ...sampleQuestionnaire(), item: items },
  });
  const question = (linkId: string, es: string, extra: Partial<QuestionnaireItem> = {}) =>
    ({
      linkId,
      type: 'string',
      text: es,
      _text: english(`${es} (en)`),
      ...extra,
    }) as QuestionnaireItem;

  it('answers 422 naming an item whose condition points to a later or an unknown item', async () => {
    const later = await as(
      admin,
      'POST',
      '/questionnaires',
      withItems([
        question('a', 'Primera', {
          enableWhen: [{ question: 'b', operator: 'exists', answerBoolean: true }],
        }),
        question('b', 'Segunda'),
      ]),
    );
    expect(later.statusCode).toBe(422);
    expect(problemsOf(later.json()).message).toBe(
      '«Primera» depende de una pregunta posterior: solo puede depender de una anterior.',
    );

    const unknown = await as(
      adminEn,
      'POST',
      '/questionnaires',
      withItems([
        question('a', 'Primera', {
          enableWhen: [{ question: 'ghost', operator: 'exists', answerBoolean: true }],
        }),
      ]),
    );
    expect(unknown.statusCode).toBe(422);
    expect(problemsOf(unknown.json()).message).toBe(
      '“Primera (en)” depends on a question that is not in the questionnaire.',
    );
  });

  it('answers 422 for duplicate linkIds, an empty choice list and min above max, each named', async () => {
    const answer = await as(
      admin,
      'POST',
      '/questionnaires',
      withItems([
        question('a', 'Nombre'),
        question('a', 'Apellido'),
        question('c', 'Color', { type: 'choice', answerOption: [] }),
        question('d', 'Peso', {
          type: 'decimal',
          extension: [
            { url: 'http://hl7.org/fhir/StructureDefinition/minValue', valueDecimal: 200 },
            { url: 'http://hl7.org/fhir/StructureDefinition/maxValue', valueDecimal: 20 },
          ],
        }),
      ]),
    );
    expect(answer.statusCode).toBe(422);
    const { problems } = problemsOf(answer.json()).details;
    expect(problems.map((problem) => [problem.linkId, problem.problem, problem.message])).toEqual([
      ['a', 'duplicateLinkId', '«Nombre» aparece más de una vez con el mismo identificador.'],
      ['c', 'emptyChoices', '«Color» necesita al menos una opción.'],
      ['d', 'minAboveMax', 'En «Peso» el mínimo es mayor que el máximo.'],
    ]);
  });

  it('answers 400 for a body that is not a questionnaire the builder writes', async () => {
    const answer = await as(
      admin,
      'POST',
      '/questionnaires',
      withItems([question('a', 'X', { type: 'attachment' })]),
    );
    expect(answer.statusCode).toBe(400);
  });
});

describe('versions', () => {
  it('keeps a response on the version it answered after a new one is published', async () => {
    const created = await as(admin, 'POST', '/questionnaires', { questionnaire: sampleQuestionnaire() });
    const id = questionnaireDetailSchema.parse(created.json()).id;
    await as(admin, 'POST', `/questionnaires/${id}/assignments`, { doctorId: doctor.me.user.id });

    const booked = await as(patient, 'POST', '/appointments', {
      doctorId: doctor.me.user.id,
      startsAt: '2026-03-27T08:00:00Z',
      reason: 'Control',
    });
    expect(booked.statusCode, booked.body).toBe(201);
    const appointmentId = appointmentSchema.parse(booked.json()).id;
    const forms = intakeFormListSchema.parse(
      (await as(patient, 'GET', `/appointments/${appointmentId}/intake-forms`)).json(),
    ).data;
    const responseId = forms.find((form) => form.title.en === 'Before the visit')?.id ?? '';
    const submitted = await as(patient, 'POST', `/intake-responses/${responseId}/submit`, {
      answers: { smoker: [{ valueBoolean: true }], cigarettes: [{ valueInteger: 5 }] },
    });
    expect(submitted.statusCode, submitted.body).toBe(200);

    const v2 = await as(admin, 'POST', `/questionnaires/${id}/versions`, {
      questionnaire: sampleQuestionnaire({ smokerText: '¿Fuma usted tabaco?' }),
    });
    expect(v2.statusCode, v2.body).toBe(201);
    expect(questionnaireDetailSchema.parse(v2.json()).version).toBe(2);

    const read = intakeResponseDetailSchema.parse(
      (await as(patient, 'GET', `/intake-responses/${responseId}`)).json(),
    );
    expect(read.questionnaireVersion).toBe(1);
    expect(read.response.questionnaire).toBe(`urn:telemedicina:questionnaire:${id}|1`);
    const smoker = (read.questionnaire.item as QuestionnaireItem[])[0]?.item?.[0];
    expect(smoker === undefined ? '' : itemText(smoker, 'es')).toBe('¿Fuma?');
    expect(read.status).toBe('completed');

    // The next booking gets version 2.
    const again = await as(patient, 'POST', '/appointments', {
      doctorId: doctor.me.user.id,
      startsAt: '2026-03-28T08:00:00Z',
      reason: 'Control',
    });
    const nextId = appointmentSchema.parse(again.json()).id;
    const next = intakeFormListSchema.parse(
      (await as(patient, 'GET', `/appointments/${nextId}/intake-forms`)).json(),
    ).data;
    expect(next.find((form) => form.title.en === 'Before the visit')?.questionnaireVersion).toBe(2);
    expect((await auditEventsOf(context.app, 'questionnaire.published')).at(-1)).toMatchObject({
      targetType: 'questionnaire',
      targetId: id,
      details: { version: 2 },
    });
  });

  it('sends an archived questionnaire no more, and brings it back', async () => {
    const created = await as(doctor, 'POST', '/questionnaires', { questionnaire: sampleQuestionnaire() });
    const id = questionnaireDetailSchema.parse(created.json()).id;
    const archived = await as(doctor, 'PATCH', `/questionnaires/${id}`, { archived: true });
    expect(questionnaireDetailSchema.parse(archived.json()).archived).toBe(true);
    const restored = await as(doctor, 'PATCH', `/questionnaires/${id}`, { archived: false });
    expect(questionnaireDetailSchema.parse(restored.json()).archived).toBe(false);
    expect(await auditEventsOf(context.app, 'questionnaire.archived')).toHaveLength(1);
    expect(await auditEventsOf(context.app, 'questionnaire.restored')).toHaveLength(1);
  });
});
