export { SpecialtiesPage } from './components/SpecialtiesPage';
