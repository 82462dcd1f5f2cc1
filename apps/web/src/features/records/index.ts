export { ChartPage } from './components/ChartPage';
export { MyRecordPage } from './components/MyRecordPage';
export { PatientsPage } from './components/PatientsPage';
export { RecordAccessPage } from './components/RecordAccessPage';
