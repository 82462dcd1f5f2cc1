import '@mantine/core/styles/Alert.layer.css';
import { Alert, Button, Paper, Stack, Title } from '@mantine/core';
import {
  IconCircleCheck,
  IconLockOpen,
  IconShieldX,
  IconUserCheck,
  IconUserOff,
  type Icon,
} from '@tabler/icons-react';
import type { AdminUser } from '@telemedicina/shared/admin';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/modal/ConfirmDialog';
import { ApiError } from '../../../lib/api-client';
import { useApiErrorText } from '../../../lib/error-text';
import { useUserAction, type UserAction } from '../api/user-actions';
import { isLocked } from '../user-status';
import classes from './Users.module.css';

const actionIcons: Record<UserAction, Icon> = {
  disable: IconUserOff,
  enable: IconUserCheck,
  unlock: IconLockOpen,
  resetMfa: IconShieldX,
};

/** The actions that apply to this account now, in a sensible order. */
function availableActions(user: AdminUser): UserAction[] {
  const actions: UserAction[] = [];
  if (isLocked(user)) {
    actions.push('unlock');
  }
  if (user.mfaEnabled) {
    actions.push('resetMfa');
  }
  actions.push(user.status === 'disabled' ? 'enable' : 'disable');
  return actions;
}

/**
 * Disable or enable the account, lift a sign-in lockout, reset the second factor — each behind a
 * static confirmation that says what will happen; a refusal (own account, last administrator) is
 * explained inside the dialog.
 */
export function UserActionsCard({ user }: { user: AdminUser }) {
  const { t } = useTranslation();
  const errorText = useApiErrorText();
  const run = useUserAction(user.id);
  // The dialog's action stays set while it fades out, so its text does not vanish mid-transition.
  const [pending, setPending] = useState<UserAction | null>(null);
  const [isOpen, setIsOpen] = useState(false);
  const [done, setDone] = useState<UserAction | null>(null);

  const handleOpen = (action: UserAction) => {
    run.reset();
    setDone(null);
    setPending(action);
    setIsOpen(true);
  };

  const handleConfirm = async () => {
    if (!pending) {
      return;
    }
    try {
      await run.mutateAsync(pending);
      setDone(pending);
      setIsOpen(false);
    } catch {
      // Shown in the dialog from run.error.
    }
  };

  const error = run.error;
  const errorMessage =
    error instanceof ApiError && error.code === 'CANNOT_CHANGE_SELF'
      ? t('users.actions.cannotChangeSelf')
      : error
        ? errorText(error)
        : null;

  return (
    <Paper withBorder radius="lg" className={classes.card} data-testid="user-actions">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('users.actions.title')}
        </Title>
        {availableActions(user).map((action) => {
          const ActionIcon = actionIcons[action];
          return (
            <Button
              key={action}
              variant="default"
              color={action === 'disable' ? 'red' : undefined}
              justify="flex-start"
              leftSection={<ActionIcon size={18} />}
              onClick={() => handleOpen(action)}
              data-testid={`user-action-${action}`}
              className={action === 'disable' ? classes.dangerButton : undefined}
            >
              {t(`users.actions.${action}.button`)}
            </Button>
          );
        })}
        {done ? (
          <Alert
            color="teal"
            variant="light"
            icon={<IconCircleCheck />}
            role="status"
            data-testid="user-action-done"
          >
            {t(`users.actions.${done}.done`)}
          </Alert>
        ) : null}
      </Stack>
      <ConfirmDialog
        opened={isOpen}
        title={pending ? t(`users.actions.${pending}.title`) : ''}
        confirmLabel={pending ? t(`users.actions.${pending}.confirm`) : ''}
        isDestructive={pending === 'disable' || pending === 'resetMfa'}
        isPending={run.isPending}
        error={errorMessage}
        onConfirm={() => void handleConfirm()}
        onCancel={() => setIsOpen(false)}
        testId="user-action-dialog"
      >
        {pending ? t(`users.actions.${pending}.text`, { name: user.name }) : null}
      </ConfirmDialog>
    </Paper>
  );
}
