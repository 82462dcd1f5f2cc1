import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { SectionForbidden } from '../../../components/section-page/SectionForbidden';
import { SectionHeader } from '../../../components/section-page/SectionHeader';
import { useHasAnyPermission } from '../../../lib/ui-state';
import { VisitExperience, type VisitSlots } from './VisitExperience';
import classes from './Visit.module.css';

export const visitPermissions = ['visits.join', 'visits.host', 'appointments.read.any'] as const;

/**
 * `/admin/visits/:appointmentId`: the video visit, whose content follows its phase. `slots` are
 * what other features add (the doctor's note beside the call, the patient's vitals in the waiting
 * room), composed in `app/` so this feature imports none of them.
 */
export function VisitPage({ slots }: { slots?: VisitSlots } = {}) {
  const { t } = useTranslation();
  const { appointmentId = '' } = useParams();
  const isAllowed = useHasAnyPermission(visitPermissions);
  return (
    <div className={classes.page}>
      {isAllowed ? (
        <VisitExperience key={appointmentId} appointmentId={appointmentId} slots={slots} />
      ) : (
        <>
          <SectionHeader title={t('visit.section')} description={t('visit.sectionDescription')} />
          <SectionForbidden />
        </>
      )}
    </div>
  );
}
