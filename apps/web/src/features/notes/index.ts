export { AppointmentNoteSection, type NoteAppointment } from './components/AppointmentNoteSection';
export { ChartNotesSection } from './components/ChartNotesSection';
export { NotePage } from './components/NotePage';
export { VisitNotePanel } from './components/VisitNotePanel';
export { WaitingRoomVitals } from './components/WaitingRoomVitals';
