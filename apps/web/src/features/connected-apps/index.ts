export { AuthorizeAppPage } from './components/AuthorizeAppPage';
export { ConnectedAppsPage } from './components/ConnectedAppsPage';
export { RegisteredAppsPage } from './components/RegisteredAppsPage';
