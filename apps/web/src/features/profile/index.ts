export { ProfileLayout } from './components/ProfileLayout';
export { ProfileDetailsPage } from './components/ProfileDetailsPage';
export { ProfilePhotoPage } from './components/ProfilePhotoPage';
export { ProfileSecurityPage } from './components/ProfileSecurityPage';
