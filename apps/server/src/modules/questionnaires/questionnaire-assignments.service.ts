import type {
  AssignQuestionnaireRequest,
  QuestionnaireDetail,
} from '@telemedicina/shared/questionnaire-builder';
import { appError } from '../../lib/app-error.js';
import { isUuid } from '../../lib/uuid.js';
import { recordAuditEvent } from '../audit/audit.service.js';
import { type ServiceContext, requireActor } from '../context.js';
import { findDoctorCandidate } from '../doctors/doctors.repository.js';
import { deleteAssignment, specialtyExists } from './questionnaire-admin.repository.js';
import { detailOf, loadVisible } from './questionnaire-builder.service.js';
import { assertCanAssign, builderRoleOf } from './questionnaires.policy.js';
import { insertAssignment } from './questionnaires.repository.js';

/*
 * Which appointments a questionnaire is sent for: those with a doctor of a specialty (the clinic
 * assigns) or with one doctor (the clinic, or the doctor themselves). Shipped instruments are
 * assigned like any other.
 */

/** `POST /questionnaires/:id/assignments`. */
export async function assignBuilderQuestionnaire(
  ctx: ServiceContext,
  id: string,
  target: AssignQuestionnaireRequest,
): Promise<QuestionnaireDetail> {
  const actor = requireActor(ctx);
  const role = builderRoleOf(actor);
  const specialtyId = 'specialtyId' in target ? target.specialtyId : null;
  const doctorUserId = 'doctorId' in target ? target.doctorId : null;
  return ctx.db.transaction(async (db) => {
    const row = await loadVisible(db, role, id);
    assertCanAssign(role, { specialtyId, doctorUserId });
    if (specialtyId !== null && !(await specialtyExists(db, specialtyId))) {
      throw appError('NOT_FOUND', 'No such specialty.');
    }
    if (doctorUserId !== null && (await findDoctorCandidate(db, doctorUserId))?.isDoctor !== true) {
      throw appError('NOT_FOUND', 'No such doctor.');
    }
    await insertAssignment(db, {
      questionnaireId: row.questionnaire.id,
      ...(specialtyId === null ? {} : { specialtyId }),
      ...(doctorUserId === null ? {} : { doctorUserId }),
    });
    await recordAuditEvent(
      db,
      { now: ctx.now, actorUserId: actor.userId, request: ctx.request },
      {
        action: 'questionnaire.assigned',
        targetType: 'questionnaire',
        targetId: row.questionnaire.id,
        details: { specialtyId, doctorId: doctorUserId },
      },
    );
    return detailOf(db, role, row);
  });
}

/** `DELETE /questionnaires/:id/assignments/:assignmentId`: a doctor removes only their own. */
export async function unassignBuilderQuestionnaire(
  ctx: ServiceContext,
  id: string,
  assignmentId: string,
): Promise<QuestionnaireDetail> {
  const actor = requireActor(ctx);
  const role = builderRoleOf(actor);
  return ctx.db.transaction(async (db) => {
    const row = await loadVisible(db, role, id);
    const current = (await detailOf(db, role, row)).assignments.find(
      (assignment) => assignment.id === assignmentId,
    );
    if (!isUuid(assignmentId) || current === undefined) {
      throw appError('NOT_FOUND', 'No such assignment.');
    }
    assertCanAssign(role, {
      specialtyId: current.specialty?.id ?? null,
      doctorUserId: current.doctor?.id ?? null,
    });
    await deleteAssignment(db, row.questionnaire.id, assignmentId);
    await recordAuditEvent(
      db,
      { now: ctx.now, actorUserId: actor.userId, request: ctx.request },
      {
        action: 'questionnaire.unassigned',
        targetType: 'questionnaire',
        targetId: row.questionnaire.id,
        details: { specialtyId: current.specialty?.id ?? null, doctorId: current.doctor?.id ?? null },
      },
    );
    return detailOf(db, role, row);
  });
}
