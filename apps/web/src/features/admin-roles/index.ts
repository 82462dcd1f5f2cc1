export { RolesPage } from './components/RolesPage';
export { RoleEditorPage } from './components/RoleEditorPage';
