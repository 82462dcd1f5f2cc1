export { AdminLayout } from './components/AdminLayout';
export { DashboardPage } from './components/DashboardPage';
