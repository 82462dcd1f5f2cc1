export { AppointmentPage } from './components/AppointmentPage';
export { AppointmentsPage } from './components/AppointmentsPage';
