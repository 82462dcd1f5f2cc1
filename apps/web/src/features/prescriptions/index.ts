export { NewPrescriptionPage } from './components/NewPrescriptionPage';
export { PrescriptionPage } from './components/PrescriptionPage';
export { VerifyPage } from './components/VerifyPage';
