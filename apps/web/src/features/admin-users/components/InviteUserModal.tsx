import '@mantine/core/styles/ModalBase.layer.css';
import '@mantine/core/styles/Modal.layer.css';
import '@mantine/core/styles/Overlay.layer.css';
import '@mantine/core/styles/CloseButton.layer.css';
import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/Combobox.layer.css';
import '@mantine/core/styles/Popover.layer.css';
import '@mantine/core/styles/Pill.layer.css';
import '@mantine/core/styles/PillsInput.layer.css';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, MultiSelect, Stack, Text, TextInput } from '@mantine/core';
import { IconSend } from '@tabler/icons-react';
import type { Role } from '@telemedicina/shared/admin';
import { createInvitationRequestSchema } from '@telemedicina/shared/auth';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { LanguageSelect } from '../../../components/form-fields';
import { AppModal } from '../../../components/modal/AppModal';
import { ApiError, escapeHtml, publishApiErrorAlert } from '../../../lib/api-client';
import { applyServerFieldErrors, useFieldErrorText } from '../../../lib/form-errors';
import { uiState, useLanguage } from '../../../lib/ui-state';
import { useInviteUser } from '../api/invite-user';

/** The server's schema, with "choose at least one role" said in words. */
const inviteFormSchema = createInvitationRequestSchema.extend({
  roleKeys: z.array(z.string().min(1).max(64)).min(1, { message: 'validation.required' }).max(20),
});
type InviteFormInput = z.input<typeof inviteFormSchema>;
type InviteFormOutput = z.output<typeof inviteFormSchema>;

const fields = ['email', 'name', 'language', 'roleKeys'] as const;
/** Set on the email field when the address already has an account (409 from the server). */
const emailTakenKey = 'users.invite.emailTaken';

export interface InviteUserModalProps {
  opened: boolean;
  onClose: () => void;
  /** The roles that can be given (from `GET /roles`). */
  roles: readonly Role[];
}

/**
 * Invites a doctor, staff member or administrator: email, name, the language of the invitation
 * and the roles. The server sends the email with the acceptance link; its validation issues land
 * on the fields, an email that already has an account on the email field.
 */
export function InviteUserModal({ opened, onClose, roles }: InviteUserModalProps) {
  const { t } = useTranslation();
  const language = useLanguage();
  const fieldErrorText = useFieldErrorText();
  const invite = useInviteUser();
  const form = useForm<InviteFormInput, unknown, InviteFormOutput>({
    resolver: zodResolver(inviteFormSchema),
    defaultValues: { email: '', name: '', language, roleKeys: [] },
  });
  const { errors } = form.formState;

  const handleClose = () => {
    form.reset({ email: '', name: '', language, roleKeys: [] });
    invite.reset();
    onClose();
  };

  const handleSubmit = form.handleSubmit(async (values) => {
    try {
      await invite.mutateAsync(values);
      uiState.getState().publishAlert({
        type: 'success',
        content: escapeHtml(t('users.invite.sent', { email: values.email })),
      });
      handleClose();
    } catch (error) {
      if (error instanceof ApiError && (error.code === 'CONFLICT' || error.code === 'ALREADY_EXISTS')) {
        form.setError('email', { type: 'server', message: emailTakenKey }, { shouldFocus: true });
        return;
      }
      if (!applyServerFieldErrors(error, form.setError, fields)) {
        publishApiErrorAlert(error);
      }
    }
  });

  const emailError =
    errors.email?.message === emailTakenKey ? t(emailTakenKey) : fieldErrorText(errors.email?.message);

  return (
    <AppModal
      opened={opened}
      onClose={handleClose}
      isStatic={form.formState.isDirty}
      title={<Text fw={650}>{t('users.invite.title')}</Text>}
      size="lg"
    >
      <form onSubmit={(event) => void handleSubmit(event)} noValidate data-testid="invite-form">
        <Stack gap="md">
          <Text size="sm" c="gray.7">
            {t('users.invite.intro')}
          </Text>
          <TextInput
            {...form.register('email')}
            type="email"
            label={t('auth.fields.email')}
            autoComplete="off"
            required
            error={emailError}
            data-testid="invite-email"
          />
          <TextInput
            {...form.register('name')}
            label={t('auth.fields.name')}
            autoComplete="off"
            required
            error={fieldErrorText(errors.name?.message)}
            data-testid="invite-name"
          />
          <LanguageSelect
            {...form.register('language')}
            label={t('users.invite.language')}
            description={t('users.invite.languageHint')}
            error={fieldErrorText(errors.language?.message)}
            data-testid="invite-language"
          />
          <Controller
            control={form.control}
            name="roleKeys"
            render={({ field }) => (
              <MultiSelect
                label={t('users.invite.roles')}
                placeholder={field.value.length === 0 ? t('users.invite.rolesPlaceholder') : undefined}
                data={roles.map((role) => ({ value: role.key, label: role.name[language] }))}
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                ref={field.ref}
                required
                searchable
                hidePickedOptions
                nothingFoundMessage={t('users.invite.noRoles')}
                comboboxProps={{ withinPortal: true }}
                error={fieldErrorText(errors.roleKeys?.message)}
                data-testid="invite-roles"
              />
            )}
          />
          <Group justify="flex-end" gap="sm" mt="xs">
            <Button
              variant="default"
              onClick={handleClose}
              disabled={invite.isPending}
              data-testid="invite-cancel"
            >
              {t('common.cancel')}
            </Button>
            <Button
              type="submit"
              loading={invite.isPending}
              leftSection={<IconSend size={18} />}
              data-testid="invite-submit"
            >
              {t('users.invite.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </AppModal>
  );
}
