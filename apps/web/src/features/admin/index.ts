export { AdminLayout } from './components/AdminLayout';
export { DashboardPage } from './components/DashboardPage';
export { ListSectionPage, listSectionLoader } from './components/ListSectionPage';
export { SettingsPage } from './components/SettingsPage';
