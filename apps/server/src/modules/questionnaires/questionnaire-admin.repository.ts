import { and, asc, eq, inArray, isNotNull, or } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { questionnaireAssignments, questionnaires, specialties, users } from '../../db/schema.js';
import type { QuestionnaireRow } from './questionnaires.repository.js';

/** A questionnaire with the name of the doctor who owns it (null for the clinic's and the shipped). */
export interface QuestionnaireWithOwner {
  questionnaire: QuestionnaireRow;
  ownerName: string | null;
}

/** One assignment with the names the builder shows. */
export interface AssignmentRow {
  id: string;
  questionnaireId: string;
  specialtyId: string | null;
  specialtyNameEs: string | null;
  specialtyNameEn: string | null;
  doctorUserId: string | null;
  doctorName: string | null;
}

const withOwner = { questionnaire: questionnaires, ownerName: users.name };

/**
 * Questionnaires for the builder's list, oldest first: every one (`ownerDoctorUserId` null), or a
 * doctor's view — the shipped instruments and the doctor's own.
 */
export async function listQuestionnairesWithOwner(
  db: Database,
  scope: { ownerDoctorUserId: string | null },
): Promise<QuestionnaireWithOwner[]> {
  const where =
    scope.ownerDoctorUserId === null
      ? undefined
      : or(
          isNotNull(questionnaires.systemKey),
          eq(questionnaires.ownerDoctorUserId, scope.ownerDoctorUserId),
        );
  return db
    .select(withOwner)
    .from(questionnaires)
    .leftJoin(users, eq(users.id, questionnaires.ownerDoctorUserId))
    .where(where)
    .orderBy(asc(questionnaires.createdAt), asc(questionnaires.id));
}

export async function findQuestionnaireWithOwner(
  db: Database,
  id: string,
): Promise<QuestionnaireWithOwner | null> {
  const [row] = await db
    .select(withOwner)
    .from(questionnaires)
    .leftJoin(users, eq(users.id, questionnaires.ownerDoctorUserId))
    .where(eq(questionnaires.id, id));
  return row ?? null;
}

/** Locks the questionnaire row for a change (two publications never take the same number). */
export async function lockQuestionnaire(db: Database, id: string): Promise<void> {
  await db
    .select({ id: questionnaires.id })
    .from(questionnaires)
    .where(eq(questionnaires.id, id))
    .for('update');
}

export async function updateQuestionnaireRow(
  db: Database,
  id: string,
  values: { updatedAt: Date; archivedAt?: Date | null },
): Promise<void> {
  await db.update(questionnaires).set(values).where(eq(questionnaires.id, id));
}

/** The assignments of these questionnaires, with specialty and doctor names. */
export async function listAssignmentsOf(
  db: Database,
  questionnaireIds: readonly string[],
): Promise<AssignmentRow[]> {
  if (questionnaireIds.length === 0) {
    return [];
  }
  return db
    .select({
      id: questionnaireAssignments.id,
      questionnaireId: questionnaireAssignments.questionnaireId,
      specialtyId: questionnaireAssignments.specialtyId,
      specialtyNameEs: specialties.nameEs,
      specialtyNameEn: specialties.nameEn,
      doctorUserId: questionnaireAssignments.doctorUserId,
      doctorName: users.name,
    })
    .from(questionnaireAssignments)
    .leftJoin(specialties, eq(specialties.id, questionnaireAssignments.specialtyId))
    .leftJoin(users, eq(users.id, questionnaireAssignments.doctorUserId))
    .where(inArray(questionnaireAssignments.questionnaireId, [...questionnaireIds]))
    .orderBy(asc(questionnaireAssignments.createdAt), asc(questionnaireAssignments.id));
}

/** Removes one assignment of the questionnaire; the removed row, or null when there was none. */
export async function deleteAssignment(
  db: Database,
  questionnaireId: string,
  assignmentId: string,
): Promise<{ specialtyId: string | null; doctorUserId: string | null } | null> {
  const [row] = await db
    .delete(questionnaireAssignments)
    .where(
      and(
        eq(questionnaireAssignments.id, assignmentId),
        eq(questionnaireAssignments.questionnaireId, questionnaireId),
      ),
    )
    .returning({
      specialtyId: questionnaireAssignments.specialtyId,
      doctorUserId: questionnaireAssignments.doctorUserId,
    });
  return row ?? null;
}

/** Whether a specialty exists (active or not). */
export async function specialtyExists(db: Database, id: string): Promise<boolean> {
  const [row] = await db.select({ id: specialties.id }).from(specialties).where(eq(specialties.id, id));
  return row !== undefined;
}
