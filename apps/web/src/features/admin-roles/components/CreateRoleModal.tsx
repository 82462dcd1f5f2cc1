import '@mantine/core/styles/ModalBase.layer.css';
import '@mantine/core/styles/Modal.layer.css';
import '@mantine/core/styles/Overlay.layer.css';
import '@mantine/core/styles/CloseButton.layer.css';
import '@mantine/core/styles/Input.layer.css';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { localizedNameSchema, roleKeySchema } from '@telemedicina/shared/admin';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import { AppModal } from '../../../components/modal/AppModal';
import { ApiError, publishApiErrorAlert } from '../../../lib/api-client';
import { applyServerFieldErrors, useFieldErrorText } from '../../../lib/form-errors';
import { useCreateRole } from '../api/create-role';
import classes from './Roles.module.css';

const createSchema = z.object({ key: roleKeySchema, name: localizedNameSchema });
type CreateInput = z.input<typeof createSchema>;
type CreateOutput = z.output<typeof createSchema>;

const emptyValues: CreateInput = { key: '', name: { es: '', en: '' } };
/** Set on the key field when another role already has it (409 ALREADY_EXISTS). */
const keyTakenKey = 'roles.create.keyTaken';

/**
 * A new role: its key (stable, lower case) and its name in both languages. It starts without
 * permissions; once created, its editor opens to choose them.
 */
export function CreateRoleModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const fieldErrorText = useFieldErrorText();
  const create = useCreateRole();
  const form = useForm<CreateInput, unknown, CreateOutput>({
    resolver: zodResolver(createSchema),
    defaultValues: emptyValues,
  });
  const { errors } = form.formState;

  const handleClose = () => {
    form.reset(emptyValues);
    create.reset();
    onClose();
  };

  const handleSubmit = form.handleSubmit(async (values) => {
    try {
      const role = await create.mutateAsync({ ...values, permissions: [] });
      handleClose();
      void navigate(`/admin/roles/${role.id}`);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'ALREADY_EXISTS') {
        form.setError('key', { type: 'server', message: keyTakenKey }, { shouldFocus: true });
        return;
      }
      if (!applyServerFieldErrors(error, form.setError, ['key', 'name.es', 'name.en'])) {
        publishApiErrorAlert(error);
      }
    }
  });

  const keyError = errors.key?.message === keyTakenKey ? t(keyTakenKey) : fieldErrorText(errors.key?.message);

  return (
    <AppModal
      opened={opened}
      onClose={handleClose}
      isStatic={form.formState.isDirty}
      title={<Text fw={650}>{t('roles.create.title')}</Text>}
      size="lg"
    >
      <form onSubmit={(event) => void handleSubmit(event)} noValidate data-testid="role-create-form">
        <Stack gap="md">
          <Text size="sm" c="gray.7">
            {t('roles.create.intro')}
          </Text>
          <TextInput
            {...form.register('key')}
            label={t('roles.fields.key')}
            description={t('roles.fields.keyHint')}
            classNames={{ input: classes.key }}
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            required
            error={keyError}
            data-testid="role-create-key"
          />
          <TextInput
            {...form.register('name.es')}
            label={t('roles.fields.nameEs')}
            lang="es"
            required
            error={fieldErrorText(errors.name?.es?.message)}
            data-testid="role-create-name-es"
          />
          <TextInput
            {...form.register('name.en')}
            label={t('roles.fields.nameEn')}
            lang="en"
            required
            error={fieldErrorText(errors.name?.en?.message)}
            data-testid="role-create-name-en"
          />
          <Group justify="flex-end" gap="sm" mt="xs">
            <Button variant="default" onClick={handleClose} disabled={create.isPending}>
              {t('common.cancel')}
            </Button>
            <Button
              type="submit"
              loading={create.isPending}
              leftSection={<IconPlus size={18} />}
              data-testid="role-create-submit"
            >
              {t('roles.create.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </AppModal>
  );
}
