export { IntakeFormPage } from './components/IntakeFormPage';
export { AppointmentIntakeSection } from './components/AppointmentIntakeSection';
export { IntakeScoreBadges } from './components/IntakeScoreBadges';
export { ChartIntakeSection } from './components/ChartIntakeSection';
export { VisitIntakePanel, VisitIntakeTabLabel } from './components/VisitIntakePanel';
export { ItemField } from './components/IntakeItemField';
