export { DoctorSchedulePage, MySchedulePage } from './components/SchedulePages';
