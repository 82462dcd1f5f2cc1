import { flattenItems } from '@telemedicina/shared/intake-logic';
import type { BuilderQuestionnaire } from '@telemedicina/shared/questionnaire-builder';
import {
  definitionItemText,
  type QuestionnaireDefinitionProblem,
} from '@telemedicina/shared/questionnaire-definition';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '../../../lib/ui-state';

/** A problem found before publishing, in words naming the item (as the server would answer it). */
export function useProblemText() {
  const { t } = useTranslation();
  const language = useLanguage();
  return (questionnaire: BuilderQuestionnaire, problem: QuestionnaireDefinitionProblem): string => {
    const text = definitionItemText(questionnaire, problem.linkId, language);
    // An item without words yet is named by its place in the list, as its card is.
    const position = flattenItems(questionnaire.item).findIndex((item) => item.linkId === problem.linkId);
    const item =
      text === problem.linkId ? t('questionnaireBuilder.item.untitled', { number: position + 1 }) : text;
    return t(`questionnaireBuilder.problems.${problem.problem}`, { item });
  };
}
