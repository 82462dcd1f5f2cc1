import type { Questionnaire } from '@medplum/fhirtypes';
import type { Language } from '@telemedicina/shared/i18n';
import type {
  BuilderQuestionnaire,
  DefinitionProblem,
  DefinitionProblemKind,
  QuestionnaireDetail,
  QuestionnaireSummary,
} from '@telemedicina/shared/questionnaire-builder';
import {
  definitionItemText,
  questionnaireDefinitionProblems,
} from '@telemedicina/shared/questionnaire-definition';
import type { Database } from '../../db/client.js';
import { appError } from '../../lib/app-error.js';
import { languageOf } from '../../lib/language.js';
import { isUuid } from '../../lib/uuid.js';
import { t } from '../../text/catalogue.js';
import { recordAuditEvent } from '../audit/audit.service.js';
import { type ServiceContext, requireActor } from '../context.js';
import { findUserById } from '../identity/users.repository.js';
import {
  findQuestionnaireWithOwner,
  listAssignmentsOf,
  listQuestionnairesWithOwner,
  lockQuestionnaire,
  type QuestionnaireWithOwner,
  updateQuestionnaireRow,
} from './questionnaire-admin.repository.js';
import {
  assertCanEdit,
  type BuilderRole,
  builderRoleOf,
  canEditQuestionnaire,
  canSeeQuestionnaire,
} from './questionnaires.policy.js';
import { presentQuestionnaireDetail, presentQuestionnaireSummary } from './questionnaires.presenter.js';
import { findLatestVersion, insertNextVersion, insertQuestionnaire } from './questionnaires.repository.js';

/*
 * The questionnaire builder's use cases (issue 25): list, read, create, publish a new version,
 * archive. Publishing never changes a version: a response keeps pointing at the one it answered.
 */

function notFound(): never {
  throw appError('NOT_FOUND', 'No such questionnaire.');
}

/** The row when the asker may see it, else 404 (another doctor's is not theirs to know of). */
export async function loadVisible(
  db: Database,
  role: BuilderRole,
  id: string,
): Promise<QuestionnaireWithOwner> {
  const row = isUuid(id) ? await findQuestionnaireWithOwner(db, id) : null;
  if (row === null || !canSeeQuestionnaire(role, row.questionnaire)) {
    return notFound();
  }
  return row;
}

/** The questionnaire as the builder shows it, with its latest version and assignments. */
export async function detailOf(
  db: Database,
  role: BuilderRole,
  row: QuestionnaireWithOwner,
): Promise<QuestionnaireDetail> {
  const latest = (await findLatestVersion(db, row.questionnaire.id)) ?? notFound();
  const assignments = await listAssignmentsOf(db, [row.questionnaire.id]);
  return presentQuestionnaireDetail(row, latest, assignments, canEditQuestionnaire(role, row.questionnaire));
}

/** `GET /questionnaires`: the clinic sees all; a doctor the shipped instruments and their own. */
export async function listBuilderQuestionnaires(ctx: ServiceContext): Promise<QuestionnaireSummary[]> {
  const role = builderRoleOf(requireActor(ctx));
  const rows = await listQuestionnairesWithOwner(ctx.db, {
    ownerDoctorUserId: role.kind === 'clinic' ? null : role.userId,
  });
  const assignments = await listAssignmentsOf(
    ctx.db,
    rows.map((row) => row.questionnaire.id),
  );
  const out: QuestionnaireSummary[] = [];
  for (const row of rows) {
    const latest = await findLatestVersion(ctx.db, row.questionnaire.id);
    if (latest !== null) {
      out.push(
        presentQuestionnaireSummary(row, latest, assignments, canEditQuestionnaire(role, row.questionnaire)),
      );
    }
  }
  return out;
}

/** `GET /questionnaires/:id`. */
export async function getBuilderQuestionnaire(ctx: ServiceContext, id: string): Promise<QuestionnaireDetail> {
  const role = builderRoleOf(requireActor(ctx));
  return detailOf(ctx.db, role, await loadVisible(ctx.db, role, id));
}

function problemMessage(language: Language, problem: DefinitionProblemKind, item: string): string {
  return t(language, `questionnaires.problems.${problem}`, { item });
}

/** 422 naming each item in the asker's language when the definition cannot be published. */
async function assertPublishable(ctx: ServiceContext, body: BuilderQuestionnaire): Promise<void> {
  const problems = questionnaireDefinitionProblems(body);
  if (problems.length === 0) {
    return;
  }
  const user = await findUserById(ctx.db, requireActor(ctx).userId);
  const language = user === null ? 'es' : languageOf(user);
  const named: DefinitionProblem[] = problems.map((problem) => {
    const itemText = definitionItemText(body, problem.linkId, language);
    return { ...problem, itemText, message: problemMessage(language, problem.problem, itemText) };
  });
  throw appError('UNPROCESSABLE', named[0]?.message ?? 'The questionnaire cannot be published.', {
    problems: named,
  });
}

/** The stored FHIR resource of a version (its number is set by the repository). */
function resourceOf(questionnaireId: string, body: BuilderQuestionnaire): Questionnaire {
  return {
    ...(body as Questionnaire),
    resourceType: 'Questionnaire',
    url: `urn:telemedicina:questionnaire:${questionnaireId}`,
    status: 'active',
  };
}

async function auditChange(
  ctx: ServiceContext,
  db: Database,
  action:
    'questionnaire.created' | 'questionnaire.published' | 'questionnaire.archived' | 'questionnaire.restored',
  questionnaireId: string,
  details: Record<string, unknown>,
): Promise<void> {
  await recordAuditEvent(
    db,
    { now: ctx.now, actorUserId: requireActor(ctx).userId, request: ctx.request },
    { action, targetType: 'questionnaire', targetId: questionnaireId, details },
  );
}

/**
 * `POST /questionnaires`: version 1 of a new questionnaire — the clinic's when the clinic creates
 * it, the doctor's own when a doctor does.
 */
export async function createBuilderQuestionnaire(
  ctx: ServiceContext,
  body: BuilderQuestionnaire,
): Promise<QuestionnaireDetail> {
  const actor = requireActor(ctx);
  const role = builderRoleOf(actor);
  await assertPublishable(ctx, body);
  const now = ctx.now();
  return ctx.db.transaction(async (db) => {
    const created = await insertQuestionnaire(db, {
      ownerDoctorUserId: role.kind === 'doctor' ? role.userId : null,
      createdAt: now,
      updatedAt: now,
    });
    const version = await insertNextVersion(db, created.id, resourceOf(created.id, body), now, actor.userId);
    await auditChange(ctx, db, 'questionnaire.created', created.id, {
      version: version.version,
      owner: role.kind,
    });
    return detailOf(db, role, (await findQuestionnaireWithOwner(db, created.id)) ?? notFound());
  });
}

/** `POST /questionnaires/:id/versions`: publishes the next version; answered versions stay as they were. */
export async function publishBuilderVersion(
  ctx: ServiceContext,
  id: string,
  body: BuilderQuestionnaire,
): Promise<QuestionnaireDetail> {
  const actor = requireActor(ctx);
  const role = builderRoleOf(actor);
  assertCanEdit(role, (await loadVisible(ctx.db, role, id)).questionnaire);
  await assertPublishable(ctx, body);
  return ctx.db.transaction(async (db) => {
    await lockQuestionnaire(db, id);
    const row = await loadVisible(db, role, id);
    assertCanEdit(role, row.questionnaire);
    const now = ctx.now();
    const version = await insertNextVersion(db, id, resourceOf(id, body), now, actor.userId);
    await updateQuestionnaireRow(db, id, { updatedAt: now });
    await auditChange(ctx, db, 'questionnaire.published', id, { version: version.version });
    return detailOf(db, role, (await findQuestionnaireWithOwner(db, id)) ?? notFound());
  });
}

/** `PATCH /questionnaires/:id`: archived ones are no longer sent at booking (forms already sent stay). */
export async function setBuilderArchived(
  ctx: ServiceContext,
  id: string,
  archived: boolean,
): Promise<QuestionnaireDetail> {
  const role = builderRoleOf(requireActor(ctx));
  return ctx.db.transaction(async (db) => {
    const found = await loadVisible(db, role, id);
    assertCanEdit(role, found.questionnaire);
    await lockQuestionnaire(db, id);
    if ((found.questionnaire.archivedAt !== null) !== archived) {
      const now = ctx.now();
      await updateQuestionnaireRow(db, id, { updatedAt: now, archivedAt: archived ? now : null });
      await auditChange(ctx, db, archived ? 'questionnaire.archived' : 'questionnaire.restored', id, {});
    }
    return detailOf(db, role, (await findQuestionnaireWithOwner(db, id)) ?? notFound());
  });
}
