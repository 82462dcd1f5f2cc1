export { UsersPage } from './components/UsersPage';
export { UserDetailPage } from './components/UserDetailPage';
