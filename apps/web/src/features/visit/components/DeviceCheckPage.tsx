import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/Anchor.layer.css';
import { Alert, Anchor, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import type { DeviceCheckResult } from '@telemedicina/shared/visits';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { SectionForbidden } from '../../../components/section-page/SectionForbidden';
import { useApiErrorText } from '../../../lib/error-text';
import { useHasAnyPermission } from '../../../lib/ui-state';
import { useSaveDeviceCheck } from '../api/save-device-check';
import { useVisitState } from '../api/visit-state';
import { DeviceCheck } from './DeviceCheck';
import { visitPermissions } from './VisitPage';
import classes from './Visit.module.css';

/** `/admin/visits/:appointmentId/check`: the device check on its own, to run again at any time. */
export function DeviceCheckPage() {
  const { t } = useTranslation();
  const errorText = useApiErrorText();
  const navigate = useNavigate();
  const { appointmentId = '' } = useParams();
  const isAllowed = useHasAnyPermission(visitPermissions);
  const visit = useVisitState(appointmentId);
  const save = useSaveDeviceCheck(appointmentId);

  const handleSave = async (result: DeviceCheckResult) => {
    await save.mutateAsync(result).then(
      () => {
        try {
          sessionStorage.setItem(`telemedicina.visit.checked.${appointmentId}`, '1');
        } catch {
          // Private mode.
        }
        void navigate(`/admin/visits/${appointmentId}`);
      },
      () => undefined,
    );
  };

  return (
    <div className={classes.page}>
      <Stack gap="md" className={classes.narrow} style={{ maxWidth: 1120 }}>
        <Anchor component={Link} to={`/admin/visits/${appointmentId}`} size="sm">
          <Group gap={4} component="span">
            <IconArrowLeft size={16} />
            {t('visit.check.backToVisit')}
          </Group>
        </Anchor>
        <Title order={1} size="h2">
          {t('visit.check.title')}
        </Title>
        <Text size="sm" c="gray.7">
          {t('visit.check.description')}
        </Text>
        {!isAllowed ? <SectionForbidden /> : null}
        {isAllowed && visit.isPending ? <Loader /> : null}
        {isAllowed && visit.isError ? (
          <Alert color="red" variant="light">
            {errorText(visit.error)}
          </Alert>
        ) : null}
        {isAllowed && visit.data ? (
          <DeviceCheck
            iceServers={visit.data.iceServers}
            onSave={handleSave}
            isSaving={save.isPending}
            saveError={save.isError ? errorText(save.error) : null}
            continueLabel={t('visit.check.save')}
          />
        ) : null}
      </Stack>
    </div>
  );
}
