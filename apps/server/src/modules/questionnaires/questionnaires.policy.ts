import { appError } from '../../lib/app-error.js';
import type { Actor } from '../context.js';
import type { QuestionnaireRow } from './questionnaires.repository.js';

/**
 * Who builds questionnaires: the clinic (`settings.manage` or the admin role) manages every one;
 * a doctor (`doctors.profile.own`) sees the shipped instruments and their own, edits their own and
 * assigns to themselves only. Shipped instruments are never edited (they are assigned).
 */
export type BuilderRole = { kind: 'clinic' } | { kind: 'doctor'; userId: string };

export function builderRoleOf(actor: Actor): BuilderRole {
  if (actor.permissions.has('settings.manage') || actor.roleKeys.includes('admin')) {
    return { kind: 'clinic' };
  }
  if (actor.permissions.has('doctors.profile.own')) {
    return { kind: 'doctor', userId: actor.userId };
  }
  throw appError('FORBIDDEN', 'Only the clinic and doctors build questionnaires.');
}

export function canSeeQuestionnaire(role: BuilderRole, row: QuestionnaireRow): boolean {
  return role.kind === 'clinic' || row.systemKey !== null || row.ownerDoctorUserId === role.userId;
}

export function canEditQuestionnaire(role: BuilderRole, row: QuestionnaireRow): boolean {
  return row.systemKey === null && (role.kind === 'clinic' || row.ownerDoctorUserId === role.userId);
}

/** A change of content or state: 404 when the asker cannot see it, 403 when it is read-only to them. */
export function assertCanEdit(role: BuilderRole, row: QuestionnaireRow): void {
  if (!canSeeQuestionnaire(role, row)) {
    throw appError('NOT_FOUND', 'No such questionnaire.');
  }
  if (!canEditQuestionnaire(role, row)) {
    throw appError('FORBIDDEN', 'This questionnaire is read-only: it can be assigned, not changed.');
  }
}

/** Assignments: the clinic to any specialty or doctor; a doctor only to themselves. */
export function assertCanAssign(
  role: BuilderRole,
  target: { specialtyId: string | null; doctorUserId: string | null },
): void {
  if (role.kind === 'doctor' && target.doctorUserId !== role.userId) {
    throw appError('FORBIDDEN', 'A doctor assigns questionnaires to themselves only.');
  }
}
