import type { QuestionnaireResponse } from '@medplum/fhirtypes';
import type { IntakeFormSummary, IntakeProblem, IntakeResponseDetail } from '@telemedicina/shared/intake';
import {
  type AnswerMap,
  flattenItems,
  itemText,
  responseItems,
  type ResponseProblemKind,
  scoreInstrument,
  validateAnswers,
} from '@telemedicina/shared/intake-logic';
import type { Language } from '@telemedicina/shared/i18n';
import type { Database } from '../../db/client.js';
import { appError } from '../../lib/app-error.js';
import { languageOf } from '../../lib/language.js';
import { isUuid } from '../../lib/uuid.js';
import { t } from '../../text/catalogue.js';
import { findAppointment } from '../appointments/appointments.repository.js';
import { recordAuditEvent } from '../audit/audit.service.js';
import { type ServiceContext, requireActor } from '../context.js';
import { findUserById } from '../identity/users.repository.js';
import {
  findResponse,
  listResponsesOfAppointment,
  listResponsesOfPatient,
  lockResponse,
  type ResponseWithVersion,
  updateResponse,
} from '../questionnaires/questionnaires.repository.js';
import { accessDetails } from '../records/chart-audit.js';
import { assertCanAnswer, authorizeIntakeRead } from './intake.policy.js';
import { presentFormSummary, presentResponseDetail } from './intake.presenter.js';

/** How many of a patient's responses the chart lists (scores over time). */
const chartListLimit = 200;

function notFound(): never {
  throw appError('NOT_FOUND', 'No such form.');
}

async function loadResponse(db: Database, id: string): Promise<ResponseWithVersion> {
  const row = isUuid(id) ? await findResponse(db, id) : null;
  return row ?? notFound();
}

/**
 * `GET /appointments/:id/intake-forms`: the forms due for an appointment with their status (and,
 * once completed, the instrument's score and flag), for the patient and their clinicians.
 */
export async function listAppointmentForms(
  ctx: ServiceContext,
  appointmentId: string,
): Promise<IntakeFormSummary[]> {
  const actor = requireActor(ctx);
  const appointment = isUuid(appointmentId) ? await findAppointment(ctx.db, appointmentId) : null;
  if (appointment === null) {
    return notFound();
  }
  const grant = await authorizeIntakeRead(ctx.db, actor, appointment.patientUserId, ctx.now());
  const rows = await listResponsesOfAppointment(ctx.db, appointment.id);
  await ctx.audit({
    action: 'record.viewed',
    targetType: 'patient',
    targetId: appointment.patientUserId,
    details: {
      section: 'intakeForms',
      appointmentId: appointment.id,
      count: rows.length,
      ...accessDetails(grant),
    },
  });
  return rows.map(presentFormSummary);
}

/** `GET /patients/:id/intake-responses`: the patient's forms, newest first (the chart, scores over time). */
export async function listPatientForms(ctx: ServiceContext, patientId: string): Promise<IntakeFormSummary[]> {
  const actor = requireActor(ctx);
  const grant = await authorizeIntakeRead(ctx.db, actor, patientId, ctx.now());
  const rows = await listResponsesOfPatient(ctx.db, grant.patient.id, chartListLimit);
  await ctx.audit({
    action: 'record.viewed',
    targetType: 'patient',
    targetId: grant.patient.id,
    details: { section: 'intakeForms', count: rows.length, ...accessDetails(grant) },
  });
  return rows.map(presentFormSummary);
}

/** `GET /intake-responses/:id`: the version answered and the answers; every read audited. */
export async function getIntakeResponse(ctx: ServiceContext, id: string): Promise<IntakeResponseDetail> {
  const actor = requireActor(ctx);
  const row = await loadResponse(ctx.db, id);
  const grant = await authorizeIntakeRead(ctx.db, actor, row.response.patientUserId, ctx.now());
  await ctx.audit({
    action: 'record.viewed',
    targetType: 'patient',
    targetId: row.response.patientUserId,
    details: { section: 'intakeResponse', responseId: row.response.id, ...accessDetails(grant) },
  });
  return presentResponseDetail(row);
}

function problemMessage(
  language: Language,
  problem: ResponseProblemKind,
  item: string,
  limit: number,
): string {
  switch (problem) {
    case 'required':
      return t(language, 'intake.problems.required', { item });
    case 'unknownItem':
      return t(language, 'intake.problems.unknownItem', { item });
    case 'wrongType':
      return t(language, 'intake.problems.wrongType', { item });
    case 'notAnOption':
      return t(language, 'intake.problems.notAnOption', { item });
    case 'tooMany':
      return t(language, 'intake.problems.tooMany', { item });
    case 'belowMin':
      return t(language, 'intake.problems.belowMin', { item, limit });
    case 'aboveMax':
      return t(language, 'intake.problems.aboveMax', { item, limit });
    case 'notEnabled':
      return t(language, 'intake.problems.notEnabled', { item });
  }
}

/** 422 naming each item in the asker's language; nothing was saved. */
function problemsError(
  row: ResponseWithVersion,
  problems: ReturnType<typeof validateAnswers>,
  language: Language,
) {
  const items = new Map(flattenItems(row.version.resource.item).map((item) => [item.linkId, item]));
  const named: (IntakeProblem & { message: string })[] = problems.map((problem) => {
    const item = items.get(problem.linkId);
    const text = item === undefined ? problem.linkId : itemText(item, language);
    return {
      ...problem,
      itemText: item === undefined ? '' : text,
      message: problemMessage(language, problem.problem, text, problem.limit ?? 0),
    };
  });
  return appError('UNPROCESSABLE', named[0]?.message ?? 'The answers do not fit this form.', {
    problems: named,
  });
}

/**
 * Saves the patient's answers so far (`submit: false`, the autosave) or submits them
 * (`submit: true`: every required item answered, then completed with its score). The answers are
 * checked against the exact version the response refers to; any problem answers 422 and nothing
 * is written. A completed response is not changed again.
 */
export async function saveIntakeAnswers(
  ctx: ServiceContext,
  id: string,
  answers: AnswerMap,
  submit: boolean,
): Promise<IntakeResponseDetail> {
  const actor = requireActor(ctx);
  const user = await findUserById(ctx.db, actor.userId);
  const language = user === null ? 'es' : languageOf(user);
  const saved = await ctx.db.transaction(async (db) => {
    const found = isUuid(id) ? await findResponse(db, id) : null;
    if (found === null) {
      return notFound();
    }
    assertCanAnswer(actor, found.response.patientUserId);
    await lockResponse(db, id);
    const row = (await findResponse(db, id)) ?? notFound();
    if (row.response.status === 'completed') {
      throw appError('CONFLICT', 'This form was already sent.');
    }
    const questionnaire = row.version.resource;
    const problems = validateAnswers(questionnaire, answers, { requireComplete: submit });
    if (problems.length > 0) {
      throw problemsError(row, problems, language);
    }
    const now = ctx.now();
    const score =
      submit && row.instrument !== null ? scoreInstrument(row.instrument, questionnaire, answers) : null;
    const resource: QuestionnaireResponse = {
      ...row.response.resource,
      resourceType: 'QuestionnaireResponse',
      id: row.response.id,
      status: submit ? 'completed' : 'in-progress',
      subject: { reference: `Patient/${row.response.patientUserId}` },
      author: { reference: `Patient/${row.response.patientUserId}` },
      authored: now.toISOString(),
      extension: [
        {
          url: 'urn:telemedicina:appointment',
          valueReference: { reference: `Appointment/${row.response.appointmentId}` },
        },
      ],
      item: responseItems(questionnaire, answers),
    };
    await updateResponse(db, id, {
      resource,
      status: submit ? 'completed' : 'in-progress',
      score: score?.score ?? null,
      severity: score?.severity ?? null,
      selfHarmFlag: score?.selfHarmFlag ?? false,
      updatedAt: now,
      completedAt: submit ? now : null,
    });
    if (submit) {
      await recordAuditEvent(
        db,
        { now: ctx.now, actorUserId: actor.userId, request: ctx.request },
        {
          action: 'record.updated',
          targetType: 'patient',
          targetId: row.response.patientUserId,
          details: {
            section: 'intakeResponse',
            responseId: row.response.id,
            submitted: true,
            access: 'self',
            emergency: false,
          },
        },
      );
    }
    return (await findResponse(db, id)) ?? notFound();
  });
  return presentResponseDetail(saved);
}
