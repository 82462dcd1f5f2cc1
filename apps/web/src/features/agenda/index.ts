export { AgendaPage } from './components/AgendaPage';
export { ReceptionDayPage } from './components/ReceptionDayPage';
