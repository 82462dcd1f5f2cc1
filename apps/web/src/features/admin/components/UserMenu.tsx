import '@mantine/core/styles/Menu.layer.css';
import '@mantine/core/styles/Popover.layer.css';
import '@mantine/core/styles/Avatar.layer.css';
import { Avatar, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconLogout, IconUserCircle } from '@tabler/icons-react';
import type { User } from '@telemedicina/shared';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSignOut } from '../../../lib/session';
import classes from './AdminLayout.module.css';

/** The signed-in person: photo or initials, name, a link to the profile, and sign-out. */
export function UserMenu({ user, isProfileOnly }: { user: User; isProfileOnly: boolean }) {
  const { t } = useTranslation();
  const signOut = useSignOut();
  return (
    <Menu position="bottom-end" width={240} shadow="md" withinPortal>
      <Menu.Target>
        <UnstyledButton
          className={classes.userButton}
          aria-label={t('admin.userMenu.open', { name: user.name })}
          data-testid="user-menu-button"
        >
          <Group gap={8} wrap="nowrap">
            {/* Initials are decoration here: the button's name is "Menú de <name>" (label in name). */}
            <span aria-hidden style={{ display: 'contents' }}>
              <UserAvatar user={user} size={34} />
            </span>
            <Text size="sm" fw={600} truncate="end" className={classes.userName} visibleFrom="md">
              {user.name}
            </Text>
            <IconChevronDown size={14} aria-hidden />
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown data-testid="user-menu">
        <Menu.Label>
          <Text size="sm" fw={650} c="gray.9" truncate="end" data-testid="user-menu-name">
            {user.name}
          </Text>
          <Text size="xs" c="gray.7" truncate="end">
            {user.email}
          </Text>
        </Menu.Label>
        <Menu.Divider />
        <Menu.Item
          component={Link}
          to={isProfileOnly ? '/admin/profile/security' : '/admin/profile'}
          leftSection={<IconUserCircle size={18} />}
          data-testid="user-menu-profile"
        >
          {t('admin.userMenu.profile')}
        </Menu.Item>
        <Menu.Item
          color="red"
          leftSection={<IconLogout size={18} />}
          onClick={() => void signOut()}
          data-testid="user-menu-sign-out"
        >
          {t('admin.userMenu.signOut')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

/** The user's photo, or their initials on a coloured disc when there is none. */
export function UserAvatar({ user, size }: { user: Pick<User, 'name' | 'photoUrl'>; size: number }) {
  const { t } = useTranslation();
  return (
    <Avatar
      src={user.photoUrl}
      name={user.name}
      color="initials"
      size={size}
      alt={t('admin.userMenu.photoAlt', { name: user.name })}
      data-testid="user-avatar"
    />
  );
}
