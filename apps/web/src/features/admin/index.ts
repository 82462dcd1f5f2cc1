export { AdminLayout } from './components/AdminLayout';
export { navigationItems, type NavigationItem } from './navigation';
