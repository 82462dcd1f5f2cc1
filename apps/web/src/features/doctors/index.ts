export { DoctorPage } from './components/DoctorPage';
export { DoctorsPage } from './components/DoctorsPage';
