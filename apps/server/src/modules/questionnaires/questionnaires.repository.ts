import type { Questionnaire, QuestionnaireResponse } from '@medplum/fhirtypes';
import { and, asc, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import {
  questionnaireAssignments,
  questionnaireResponses,
  questionnaires,
  questionnaireVersions,
} from '../../db/schema.js';

export type QuestionnaireRow = typeof questionnaires.$inferSelect;
export type QuestionnaireVersionRow = typeof questionnaireVersions.$inferSelect;
export type QuestionnaireResponseRow = typeof questionnaireResponses.$inferSelect;

/** A response with the version it answers and its questionnaire's instrument. */
export interface ResponseWithVersion {
  response: QuestionnaireResponseRow;
  version: QuestionnaireVersionRow;
  instrument: QuestionnaireRow['instrument'];
}

export async function findQuestionnaireBySystemKey(
  db: Database,
  systemKey: string,
): Promise<QuestionnaireRow | null> {
  const [row] = await db.select().from(questionnaires).where(eq(questionnaires.systemKey, systemKey));
  return row ?? null;
}

export async function insertQuestionnaire(
  db: Database,
  values: typeof questionnaires.$inferInsert,
): Promise<QuestionnaireRow> {
  const [row] = await db.insert(questionnaires).values(values).returning();
  if (row === undefined) {
    throw new Error('questionnaire insert returned nothing');
  }
  return row;
}

export async function findLatestVersion(
  db: Database,
  questionnaireId: string,
): Promise<QuestionnaireVersionRow | null> {
  const [row] = await db
    .select()
    .from(questionnaireVersions)
    .where(eq(questionnaireVersions.questionnaireId, questionnaireId))
    .orderBy(desc(questionnaireVersions.version))
    .limit(1);
  return row ?? null;
}

/** Publishes `resource` as the next version (1 for the first). */
export async function insertNextVersion(
  db: Database,
  questionnaireId: string,
  resource: Questionnaire,
  publishedAt: Date,
  publishedByUserId: string | null,
): Promise<QuestionnaireVersionRow> {
  const latest = await findLatestVersion(db, questionnaireId);
  const version = (latest?.version ?? 0) + 1;
  const [row] = await db
    .insert(questionnaireVersions)
    .values({
      questionnaireId,
      version,
      resource: { ...resource, version: String(version) },
      publishedAt,
      publishedByUserId,
    })
    .returning();
  if (row === undefined) {
    throw new Error('questionnaire version insert returned nothing');
  }
  return row;
}

/** Attaches a questionnaire to a specialty or a doctor (nothing when it already is). */
export async function insertAssignment(
  db: Database,
  assignment: { questionnaireId: string; specialtyId?: string; doctorUserId?: string },
): Promise<void> {
  await db
    .insert(questionnaireAssignments)
    .values({
      questionnaireId: assignment.questionnaireId,
      specialtyId: assignment.specialtyId ?? null,
      doctorUserId: assignment.doctorUserId ?? null,
    })
    .onConflictDoNothing();
}

/**
 * The latest version of every live questionnaire attached to the doctor or to one of
 * `specialtyIds`, each once.
 */
export async function findDueVersions(
  db: Database,
  doctorUserId: string,
  specialtyIds: readonly string[],
): Promise<QuestionnaireVersionRow[]> {
  const target =
    specialtyIds.length === 0
      ? eq(questionnaireAssignments.doctorUserId, doctorUserId)
      : or(
          eq(questionnaireAssignments.doctorUserId, doctorUserId),
          inArray(questionnaireAssignments.specialtyId, [...specialtyIds]),
        );
  const assigned = await db
    .selectDistinct({ id: questionnaires.id })
    .from(questionnaireAssignments)
    .innerJoin(questionnaires, eq(questionnaires.id, questionnaireAssignments.questionnaireId))
    .where(and(target, isNull(questionnaires.archivedAt)));
  const versions: QuestionnaireVersionRow[] = [];
  for (const { id } of assigned) {
    const latest = await findLatestVersion(db, id);
    if (latest !== null) {
      versions.push(latest);
    }
  }
  return versions;
}

/** Inserts in-progress responses; one per appointment and questionnaire (others are skipped). */
export async function insertResponses(
  db: Database,
  rows: readonly (typeof questionnaireResponses.$inferInsert)[],
): Promise<QuestionnaireResponseRow[]> {
  if (rows.length === 0) {
    return [];
  }
  return db
    .insert(questionnaireResponses)
    .values([...rows])
    .onConflictDoNothing()
    .returning();
}

const withVersion = {
  response: questionnaireResponses,
  version: questionnaireVersions,
  instrument: questionnaires.instrument,
};

export async function findResponse(db: Database, id: string): Promise<ResponseWithVersion | null> {
  const [row] = await db
    .select(withVersion)
    .from(questionnaireResponses)
    .innerJoin(
      questionnaireVersions,
      eq(questionnaireVersions.id, questionnaireResponses.questionnaireVersionId),
    )
    .innerJoin(questionnaires, eq(questionnaires.id, questionnaireResponses.questionnaireId))
    .where(eq(questionnaireResponses.id, id));
  return row ?? null;
}

/** Locks the response row for a change (a save and a submit never interleave). */
export async function lockResponse(db: Database, id: string): Promise<void> {
  await db
    .select({ id: questionnaireResponses.id })
    .from(questionnaireResponses)
    .where(eq(questionnaireResponses.id, id))
    .for('update');
}

export async function listResponsesOfAppointment(
  db: Database,
  appointmentId: string,
): Promise<ResponseWithVersion[]> {
  return db
    .select(withVersion)
    .from(questionnaireResponses)
    .innerJoin(
      questionnaireVersions,
      eq(questionnaireVersions.id, questionnaireResponses.questionnaireVersionId),
    )
    .innerJoin(questionnaires, eq(questionnaires.id, questionnaireResponses.questionnaireId))
    .where(eq(questionnaireResponses.appointmentId, appointmentId))
    .orderBy(asc(questionnaireResponses.createdAt), asc(questionnaireResponses.id));
}

/** A patient's responses, newest first (the chart and scores over time). */
export async function listResponsesOfPatient(
  db: Database,
  patientUserId: string,
  limit: number,
): Promise<ResponseWithVersion[]> {
  return db
    .select(withVersion)
    .from(questionnaireResponses)
    .innerJoin(
      questionnaireVersions,
      eq(questionnaireVersions.id, questionnaireResponses.questionnaireVersionId),
    )
    .innerJoin(questionnaires, eq(questionnaires.id, questionnaireResponses.questionnaireId))
    .where(eq(questionnaireResponses.patientUserId, patientUserId))
    .orderBy(desc(questionnaireResponses.createdAt), desc(questionnaireResponses.id))
    .limit(limit);
}

export async function updateResponse(
  db: Database,
  id: string,
  values: {
    resource: QuestionnaireResponse;
    status: 'in-progress' | 'completed';
    score: number | null;
    severity: string | null;
    selfHarmFlag: boolean;
    updatedAt: Date;
    completedAt: Date | null;
  },
): Promise<void> {
  await db.update(questionnaireResponses).set(values).where(eq(questionnaireResponses.id, id));
}

/** Serialises the shipped instruments' check between instances starting together (transaction-scoped). */
export async function lockShippedInstruments(db: Database): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtextextended('questionnaires:shipped', 0))`);
}
