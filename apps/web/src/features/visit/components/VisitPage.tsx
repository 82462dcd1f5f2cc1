import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { SectionForbidden } from '../../../components/section-page/SectionForbidden';
import { SectionHeader } from '../../../components/section-page/SectionHeader';
import { useHasAnyPermission } from '../../../lib/ui-state';
import { VisitExperience } from './VisitExperience';
import classes from './Visit.module.css';

export const visitPermissions = ['visits.join', 'visits.host', 'appointments.read.any'] as const;

/** `/admin/visits/:appointmentId`: the video visit, whose content follows its phase. */
export function VisitPage() {
  const { t } = useTranslation();
  const { appointmentId = '' } = useParams();
  const isAllowed = useHasAnyPermission(visitPermissions);
  return (
    <div className={classes.page}>
      {isAllowed ? (
        <VisitExperience key={appointmentId} appointmentId={appointmentId} />
      ) : (
        <>
          <SectionHeader title={t('visit.section')} description={t('visit.sectionDescription')} />
          <SectionForbidden />
        </>
      )}
    </div>
  );
}
