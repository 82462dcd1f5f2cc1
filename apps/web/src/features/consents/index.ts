export { ConsentReminder } from './components/ConsentReminder';
export { ConsentSignPage } from './components/ConsentSignPage';
export { ConsentStateBadge } from './components/ConsentStateBadge';
export { ConsentVerifyPage } from './components/ConsentVerifyPage';
export { MyConsentsPage } from './components/MyConsentsPage';
export { ChartConsentsSection } from './components/ChartConsentsSection';
export { ConsentDocumentsAdminPage } from './components/admin/ConsentDocumentsAdminPage';
export { ConsentDocumentEditorPage } from './components/admin/ConsentDocumentEditorPage';
