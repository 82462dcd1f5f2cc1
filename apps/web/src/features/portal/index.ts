export { PortalLayout } from './components/PortalLayout';
export { PortalHomePage } from './components/PortalHomePage';
