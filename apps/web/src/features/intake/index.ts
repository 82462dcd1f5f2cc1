export { IntakeFormPage } from './components/IntakeFormPage';
export { AppointmentIntakeSection } from './components/AppointmentIntakeSection';
export { IntakeScoreBadges } from './components/IntakeScoreBadges';
export { ChartIntakeSection } from './components/ChartIntakeSection';
export { ItemField } from './components/IntakeItemField';
