import '@mantine/core/styles/ModalBase.layer.css';
import '@mantine/core/styles/Overlay.layer.css';
import '@mantine/core/styles/CloseButton.layer.css';
import '@mantine/core/styles/Modal.layer.css';
import '@mantine/core/styles/Typography.layer.css';
import { Button, Group, ThemeIcon, Typography } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { sanitizeHtml } from '../../lib/sanitize-html';
import { uiState, useAlert, type Alert } from '../../lib/ui-state';
import { AppModal } from '../modal/AppModal';
import classes from './MessageDialog.module.css';

/**
 * The one global message dialog (specification §2). It opens when a non-empty alert is published
 * to the shared state, shows an error or success icon, renders the content as sanitized HTML, and
 * is static: only its close button and "Aceptar" close it. A second alert published while it is
 * open is ignored by the store (see `publishAlert`).
 */
export function MessageDialog() {
  const { t } = useTranslation();
  const alert = useAlert();
  const dismissAlert = uiState((state) => state.dismissAlert);
  // Keep the last alert on screen while the dialog fades out after it was dismissed.
  const [shownAlert, setShownAlert] = useState<Alert | null>(alert);
  if (alert !== null && alert !== shownAlert) {
    setShownAlert(alert);
  }
  const html = useMemo(() => sanitizeHtml(shownAlert?.content ?? ''), [shownAlert]);
  const isError = shownAlert?.type !== 'success';

  return (
    <AppModal
      isStatic
      opened={alert !== null}
      onClose={dismissAlert}
      centered
      size="md"
      title={isError ? t('messageDialog.errorTitle') : t('messageDialog.successTitle')}
      closeButtonProps={{ 'aria-label': t('common.close'), ...{ 'data-testid': 'message-dialog-close' } }}
      attributes={{ content: { 'data-testid': 'message-dialog', 'data-alert-type': shownAlert?.type ?? '' } }}
      classNames={{ title: classes.title }}
    >
      <Group align="flex-start" wrap="nowrap" gap="md">
        <ThemeIcon
          size={44}
          radius="xl"
          variant="light"
          color={isError ? 'red' : 'teal'}
          data-testid={isError ? 'message-dialog-icon-error' : 'message-dialog-icon-success'}
          aria-hidden
        >
          {isError ? (
            <IconAlertTriangle size={26} stroke={1.8} />
          ) : (
            <IconCircleCheck size={26} stroke={1.8} />
          )}
        </ThemeIcon>
        <Typography className={classes.content}>
          <div data-testid="message-dialog-content" dangerouslySetInnerHTML={{ __html: html }} />
        </Typography>
      </Group>
      <Group justify="flex-end" mt="lg">
        <Button onClick={dismissAlert} data-testid="message-dialog-ok" data-autofocus>
          {t('common.ok')}
        </Button>
      </Group>
    </AppModal>
  );
}
