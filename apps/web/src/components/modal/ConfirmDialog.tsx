import '@mantine/core/styles/ModalBase.layer.css';
import '@mantine/core/styles/Modal.layer.css';
import '@mantine/core/styles/Overlay.layer.css';
import '@mantine/core/styles/CloseButton.layer.css';
import '@mantine/core/styles/Alert.layer.css';
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { AppModal } from './AppModal';

export interface ConfirmDialogProps {
  opened: boolean;
  title: string;
  /** What will happen, in a sentence or two. */
  children: ReactNode;
  confirmLabel: string;
  /** Red confirm button for actions that take something away (disable, delete). */
  isDestructive?: boolean;
  isPending?: boolean;
  /** Why the last attempt failed (shown above the buttons; the dialog stays open). */
  error?: ReactNode;
  /** Another way out offered with the error (e.g. "Deactivate instead"). */
  errorAction?: ReactNode;
  onConfirm: () => void;
  onCancel: () => void;
  testId?: string;
}

/**
 * A static confirmation dialog (no Escape, no backdrop dismissal while it matters): a question, what
 * will happen, Cancel and the confirm button. A refusal from the server is shown inside it.
 */
export function ConfirmDialog({
  opened,
  title,
  children,
  confirmLabel,
  isDestructive = false,
  isPending = false,
  error,
  errorAction,
  onConfirm,
  onCancel,
  testId = 'confirm-dialog',
}: ConfirmDialogProps) {
  const { t } = useTranslation();
  return (
    <AppModal opened={opened} onClose={onCancel} isStatic title={<Text fw={650}>{title}</Text>} centered>
      <Stack gap="md" data-testid={testId}>
        <Text size="sm">{children}</Text>
        {error ? (
          <Alert color="red" variant="light" icon={<IconAlertTriangle />} data-testid={`${testId}-error`}>
            <Stack gap="xs" align="flex-start">
              <Text size="sm">{error}</Text>
              {errorAction}
            </Stack>
          </Alert>
        ) : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={isPending} data-testid={`${testId}-cancel`}>
            {t('common.cancel')}
          </Button>
          <Button
            color={isDestructive ? 'red' : undefined}
            onClick={onConfirm}
            loading={isPending}
            data-testid={`${testId}-confirm`}
          >
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </AppModal>
  );
}
