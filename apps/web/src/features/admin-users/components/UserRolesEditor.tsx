import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/Checkbox.layer.css';
import '@mantine/core/styles/CheckboxIndicator.layer.css';
import '@mantine/core/styles/InlineInput.layer.css';
import '@mantine/core/styles/Skeleton.layer.css';
import '@mantine/core/styles/Badge.layer.css';
import { Alert, Badge, Button, Checkbox, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconDeviceFloppy } from '@tabler/icons-react';
import type { AdminUser } from '@telemedicina/shared/admin';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client';
import { useApiErrorText } from '../../../lib/error-text';
import { useLanguage } from '../../../lib/ui-state';
import { useRoleOptions } from '../api/get-role-options';
import { useSetUserRoles } from '../api/set-user-roles';
import classes from './Users.module.css';

/**
 * The account's roles as a checkbox list of every role (`PUT /users/:id/roles`). Refusals — the
 * last administrator, one's own administrator role — are explained right here.
 */
export function UserRolesEditor({ user, isReadOnly }: { user: AdminUser; isReadOnly: boolean }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const errorText = useApiErrorText();
  const roles = useRoleOptions();
  const save = useSetUserRoles(user.id);
  const initial = user.roles.map((role) => role.key);
  const [selected, setSelected] = useState<string[]>(initial);
  const [isSaved, setIsSaved] = useState(false);
  const isDirty = selected.length !== initial.length || selected.some((key) => !initial.includes(key));

  const handleToggle = (key: string, isChecked: boolean) => {
    setIsSaved(false);
    save.reset();
    setSelected((current) =>
      isChecked ? [...current, key] : current.filter((candidate) => candidate !== key),
    );
  };

  const handleSave = async () => {
    setIsSaved(false);
    try {
      await save.mutateAsync(selected);
      setIsSaved(true);
    } catch {
      // Shown below from save.error.
    }
  };

  const error = save.error;
  const code = error instanceof ApiError ? error.code : null;

  return (
    <Paper withBorder radius="lg" className={classes.card} data-testid="user-roles">
      <Stack gap="md">
        <Stack gap={4}>
          <Title order={2} size="h4">
            {t('users.roles.title')}
          </Title>
          <Text size="sm" c="gray.7">
            {t('users.roles.description')}
          </Text>
        </Stack>
        {roles.isPending ? (
          <Stack gap="xs">
            {[0, 1, 2, 3].map((index) => (
              <Skeleton key={index} height={24} radius="sm" />
            ))}
          </Stack>
        ) : roles.isError ? (
          <Alert color="red" variant="light">
            {errorText(roles.error)}
          </Alert>
        ) : (
          <Stack gap="sm" role="group" aria-label={t('users.roles.title')}>
            {roles.data.map((role) => (
              <Checkbox
                key={role.id}
                checked={selected.includes(role.key)}
                onChange={(event) => handleToggle(role.key, event.currentTarget.checked)}
                disabled={isReadOnly || save.isPending}
                data-testid={`user-role-${role.key}`}
                label={
                  <Group gap={8} wrap="wrap">
                    <Text size="sm" fw={500}>
                      {role.name[language]}
                    </Text>
                    <span className={classes.roleKey}>{role.key}</span>
                    {role.system ? (
                      <Badge size="xs" variant="light" color="gray" tt="none">
                        {t('users.roles.system')}
                      </Badge>
                    ) : null}
                  </Group>
                }
              />
            ))}
          </Stack>
        )}
        {error ? (
          <Alert
            color="red"
            variant="light"
            icon={<IconAlertTriangle />}
            title={t('users.roles.notSaved')}
            data-testid="user-roles-error"
            data-code={code ?? undefined}
          >
            {code === 'CANNOT_CHANGE_SELF' ? t('users.roles.cannotChangeSelf') : errorText(error)}
          </Alert>
        ) : null}
        {isSaved ? (
          <Alert
            color="teal"
            variant="light"
            icon={<IconCircleCheck />}
            role="status"
            data-testid="user-roles-saved"
          >
            {t('users.roles.saved')}
          </Alert>
        ) : null}
        {isReadOnly ? null : (
          <Group justify="space-between" gap="sm">
            <Text size="xs" c="gray.7">
              {t('users.roles.sessionsNote')}
            </Text>
            <Button
              onClick={() => void handleSave()}
              loading={save.isPending}
              disabled={!isDirty}
              leftSection={<IconDeviceFloppy size={18} />}
              data-testid="user-roles-save"
            >
              {t('users.roles.save')}
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
