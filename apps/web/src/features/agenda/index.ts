export { AgendaPage } from './components/AgendaPage';
