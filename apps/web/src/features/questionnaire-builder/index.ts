export { QuestionnairesPage } from './components/QuestionnairesPage';
export { QuestionnaireEditorPage } from './components/QuestionnaireEditorPage';
export type { PreviewField, PreviewFieldProps } from './components/PhonePreview';
