import type { Extension } from '@medplum/fhirtypes';
import { flattenItems, textIn } from '@telemedicina/shared/intake-logic';
import type { QuestionnaireDetail, QuestionnaireSummary } from '@telemedicina/shared/questionnaire-builder';
import type { AssignmentRow, QuestionnaireWithOwner } from './questionnaire-admin.repository.js';
import type { QuestionnaireVersionRow } from './questionnaires.repository.js';

/** A questionnaire as the builder's list shows it (its latest version's title and count of questions). */
export function presentQuestionnaireSummary(
  row: QuestionnaireWithOwner,
  latest: QuestionnaireVersionRow,
  assignments: readonly AssignmentRow[],
  canEdit: boolean,
): QuestionnaireSummary {
  const { questionnaire } = row;
  const resource = latest.resource as typeof latest.resource & { _title?: { extension?: Extension[] } };
  return {
    id: questionnaire.id,
    title: {
      es: textIn(resource.title, resource._title, 'es'),
      en: textIn(resource.title, resource._title, 'en'),
    },
    version: latest.version,
    shipped: questionnaire.systemKey !== null,
    owner:
      questionnaire.ownerDoctorUserId === null
        ? null
        : { id: questionnaire.ownerDoctorUserId, name: row.ownerName ?? '' },
    archived: questionnaire.archivedAt !== null,
    itemCount: flattenItems(resource.item).filter((item) => item.type !== 'group').length,
    assignments: assignments
      .filter((assignment) => assignment.questionnaireId === questionnaire.id)
      .map((assignment) => ({
        id: assignment.id,
        specialty:
          assignment.specialtyId === null
            ? null
            : {
                id: assignment.specialtyId,
                name: { es: assignment.specialtyNameEs ?? '', en: assignment.specialtyNameEn ?? '' },
              },
        doctor:
          assignment.doctorUserId === null
            ? null
            : { id: assignment.doctorUserId, name: assignment.doctorName ?? '' },
      })),
    publishedAt: latest.publishedAt.toISOString(),
    canEdit,
  };
}

export function presentQuestionnaireDetail(
  row: QuestionnaireWithOwner,
  latest: QuestionnaireVersionRow,
  assignments: readonly AssignmentRow[],
  canEdit: boolean,
): QuestionnaireDetail {
  return {
    ...presentQuestionnaireSummary(row, latest, assignments, canEdit),
    questionnaire: { ...latest.resource, resourceType: 'Questionnaire' },
  };
}
