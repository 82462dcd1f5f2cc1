import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/Badge.layer.css';
import '@mantine/core/styles/ActionIcon.layer.css';
import '@mantine/core/styles/Tooltip.layer.css';
import '@mantine/core/styles/Popover.layer.css';
import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/ModalBase.layer.css';
import '@mantine/core/styles/Modal.layer.css';
import '@mantine/core/styles/Overlay.layer.css';
import '@mantine/core/styles/CloseButton.layer.css';
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  CopyButton,
  Group,
  NativeSelect,
  Stack,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { IconCheck, IconCopy, IconTrash } from '@tabler/icons-react';
import type { Language } from '@telemedicina/shared/i18n';
import { createGuestInviteRequestSchema, type GuestInvite } from '@telemedicina/shared/visits';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AppModal } from '../../../components/modal/AppModal';
import { useApiErrorText } from '../../../lib/error-text';
import { formatDateTime } from '../../../lib/format';
import { useViewerTimeZone } from '../../../lib/use-clock';
import { useLanguage } from '../../../lib/ui-state';
import { useCreateGuest, useGuests, useRevokeGuest } from '../api/guests';

/**
 * The host invites an interpreter or a companion: a single-use link that expires, to copy and
 * hand over; the visit's links are listed with their state and can be revoked.
 */
export function InviteGuestModal({
  appointmentId,
  opened,
  onClose,
}: {
  appointmentId: string;
  opened: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const language = useLanguage();
  const timeZone = useViewerTimeZone();
  const errorText = useApiErrorText();
  const [name, setName] = useState('');
  const [role, setRole] = useState<'interpreter' | 'companion'>('interpreter');
  const [guestLanguage, setGuestLanguage] = useState<Language>(language);
  const [expiresInMinutes, setExpiresInMinutes] = useState(120);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [created, setCreated] = useState<GuestInvite | null>(null);
  const guests = useGuests(appointmentId, opened);
  const create = useCreateGuest(appointmentId);
  const revoke = useRevokeGuest(appointmentId);
  const [openedAt] = useState(() => Date.now());

  const handleCreate = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = createGuestInviteRequestSchema.safeParse({
      name,
      role,
      language: guestLanguage,
      expiresInMinutes,
    });
    if (!parsed.success) {
      setFieldError(t(parsed.error.issues[0]?.message as 'validation.required'));
      return;
    }
    setFieldError(null);
    create.mutate(parsed.data, {
      onSuccess: (invite) => {
        setCreated(invite);
        setName('');
      },
    });
  };

  const stateOf = (invite: GuestInvite) =>
    invite.revokedAt
      ? 'revoked'
      : invite.redeemedAt
        ? 'used'
        : Date.parse(invite.expiresAt) < openedAt
          ? 'expired'
          : 'open';

  return (
    <AppModal
      opened={opened}
      onClose={onClose}
      title={<Text fw={650}>{t('visit.invite.title')}</Text>}
      size="lg"
    >
      <Stack gap="md" data-testid="visit-invite-dialog">
        <Text size="sm">{t('visit.invite.description')}</Text>
        <form onSubmit={handleCreate}>
          <Stack gap="sm">
            <TextInput
              label={t('visit.invite.name')}
              value={name}
              onChange={(event) => setName(event.currentTarget.value)}
              error={fieldError}
              maxLength={80}
              data-testid="visit-invite-name"
            />
            <Group grow gap="sm" align="flex-start">
              <NativeSelect
                label={t('visit.invite.role')}
                value={role}
                onChange={(event) => setRole(event.currentTarget.value as 'interpreter' | 'companion')}
                data={[
                  { value: 'interpreter', label: t('visit.roles.interpreter') },
                  { value: 'companion', label: t('visit.roles.companion') },
                ]}
                data-testid="visit-invite-role"
              />
              <NativeSelect
                label={t('visit.invite.language')}
                value={guestLanguage}
                onChange={(event) => setGuestLanguage(event.currentTarget.value as Language)}
                data={[
                  { value: 'es', label: t('languages.es.name') },
                  { value: 'en', label: t('languages.en.name') },
                ]}
                data-testid="visit-invite-language"
              />
              <NativeSelect
                label={t('visit.invite.expires')}
                value={String(expiresInMinutes)}
                onChange={(event) => setExpiresInMinutes(Number(event.currentTarget.value))}
                data={[30, 120, 24 * 60].map((minutes) => ({
                  value: String(minutes),
                  label: t('visit.invite.expiresIn', { hours: minutes / 60 }),
                }))}
              />
            </Group>
            {create.isError ? (
              <Alert color="red" variant="light">
                {errorText(create.error)}
              </Alert>
            ) : null}
            <Group justify="flex-end">
              <Button type="submit" loading={create.isPending} data-testid="visit-invite-create">
                {t('visit.invite.create')}
              </Button>
            </Group>
          </Stack>
        </form>
        {created?.url ? (
          <Alert color="teal" variant="light" title={t('visit.invite.created')}>
            <Group gap="xs" wrap="nowrap">
              <Text size="sm" style={{ overflowWrap: 'anywhere' }} data-testid="visit-invite-url">
                {created.url}
              </Text>
              <CopyButton value={created.url}>
                {({ copied, copy }) => (
                  <Tooltip label={copied ? t('visit.invite.copied') : t('visit.invite.copy')}>
                    <ActionIcon variant="light" onClick={copy} aria-label={t('visit.invite.copy')}>
                      {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                    </ActionIcon>
                  </Tooltip>
                )}
              </CopyButton>
            </Group>
          </Alert>
        ) : null}
        {(guests.data ?? []).length > 0 ? (
          <Stack gap={6} component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
            {(guests.data ?? []).map((invite) => {
              const state = stateOf(invite);
              return (
                <Group
                  key={invite.id}
                  component="li"
                  justify="space-between"
                  gap="xs"
                  data-testid="visit-invite-row"
                >
                  <div>
                    <Text size="sm" fw={500}>
                      {invite.name} · {t(`visit.roles.${invite.role}`)}
                    </Text>
                    <Text size="xs" c="gray.7">
                      {t('visit.invite.until', {
                        time: formatDateTime(invite.expiresAt, language, timeZone),
                      })}
                    </Text>
                  </div>
                  <Group gap={6}>
                    <Badge variant="light" color={state === 'open' ? 'teal' : 'gray'}>
                      {t(`visit.invite.state.${state}`)}
                    </Badge>
                    {state === 'open' || state === 'used' ? (
                      <Tooltip label={t('visit.invite.revoke')}>
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          aria-label={t('visit.invite.revoke')}
                          onClick={() => revoke.mutate(invite.id)}
                        >
                          <IconTrash size={16} />
                        </ActionIcon>
                      </Tooltip>
                    ) : null}
                  </Group>
                </Group>
              );
            })}
          </Stack>
        ) : null}
      </Stack>
    </AppModal>
  );
}
