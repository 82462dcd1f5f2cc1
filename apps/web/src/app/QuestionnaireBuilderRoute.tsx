import { ItemField } from '../features/intake';
import { QuestionnaireEditorPage } from '../features/questionnaire-builder';

/** The questionnaire editor with the patient's own question fields in its phone preview (composition only). */
export function QuestionnaireEditorRoute() {
  return <QuestionnaireEditorPage PreviewField={ItemField} />;
}
