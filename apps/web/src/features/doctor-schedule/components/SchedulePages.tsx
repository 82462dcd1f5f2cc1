import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { SectionForbidden } from '../../../components/section-page/SectionForbidden';
import { SectionHeader } from '../../../components/section-page/SectionHeader';
import pageClasses from '../../../components/section-page/SectionPage.module.css';
import { useMe } from '../../../lib/session';
import { useHasAnyPermission } from '../../../lib/ui-state';
import { ScheduleEditor } from './ScheduleEditor';

/** `/admin/schedule`: the signed-in doctor's own weekly hours, exceptions and profile. */
export function MySchedulePage() {
  const { t } = useTranslation();
  const isAllowed = useHasAnyPermission(['availability.manage.own', 'doctors.profile.own']);
  const me = useMe().data;
  return (
    <div className={pageClasses.page} data-testid="schedule-page">
      {isAllowed && me ? (
        <ScheduleEditor key={me.user.id} doctorId={me.user.id} isOwn />
      ) : isAllowed ? null : (
        <>
          <SectionHeader title={t('admin.nav.schedule')} description={t('admin.sections.schedule')} />
          <SectionForbidden />
        </>
      )}
    </div>
  );
}

/** `/admin/doctors/:id/schedule`: the same editor for administrators, for any doctor. */
export function DoctorSchedulePage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const isAllowed = useHasAnyPermission(['availability.manage.any', 'doctors.manage']);
  const me = useMe().data;
  return (
    <div className={pageClasses.page} data-testid="schedule-page">
      {isAllowed ? (
        <ScheduleEditor key={id} doctorId={id} isOwn={id === me?.user.id} />
      ) : (
        <>
          <SectionHeader title={t('schedule.title')} description={t('schedule.descriptionOther')} />
          <SectionForbidden />
        </>
      )}
    </div>
  );
}
