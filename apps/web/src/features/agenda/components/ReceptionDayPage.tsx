import { useTranslation } from 'react-i18next';
import { SectionHeader } from '../../../components/section-page/SectionHeader';
import pageClasses from '../../../components/section-page/SectionPage.module.css';
import { useMe } from '../../../lib/session';
import { ClinicDay } from './ClinicDay';

/**
 * Reception's start page (`/admin` for users who book for patients and read every appointment):
 * a greeting, then the clinic's day — every doctor side by side, free times ready to book.
 */
export function ReceptionDayPage() {
  const { t } = useTranslation();
  const me = useMe().data;
  return (
    <div className={pageClasses.page} data-testid="admin-dashboard">
      <SectionHeader
        title={me ? t('home.greeting', { name: me.user.name }) : t('admin.nav.agenda')}
        description={t('home.audience.staff.description')}
      />
      <ClinicDay />
    </div>
  );
}
