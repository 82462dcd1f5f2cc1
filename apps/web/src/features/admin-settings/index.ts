export { ClinicSettingsPage } from './components/ClinicSettingsPage';
