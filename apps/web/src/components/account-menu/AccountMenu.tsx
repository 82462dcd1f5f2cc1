import '@mantine/core/styles/Menu.layer.css';
import '@mantine/core/styles/Popover.layer.css';
import '@mantine/core/styles/Avatar.layer.css';
import { Avatar, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconLogout, IconUserCircle } from '@tabler/icons-react';
import type { User } from '@telemedicina/shared/auth';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSignOut } from '../../lib/session';

/** A place of one's own the menu leads to besides the profile (the portal's consents). */
export interface AccountMenuLink {
  key: string;
  to: string;
  label: string;
  icon: ReactNode;
}

/**
 * The signed-in person's menu, in the staff frame and in the patient's portal: photo or initials
 * (and, in the staff frame from medium screens, the name), a link to the profile and to the
 * frame's other places of one's own, and sign-out.
 */
export function AccountMenu({
  user,
  profilePath,
  links = [],
  buttonClassName,
  nameClassName,
}: {
  user: User;
  profilePath: string;
  links?: readonly AccountMenuLink[];
  buttonClassName?: string;
  /** Shows the name and a chevron beside the photo from medium screens, styled by this class. */
  nameClassName?: string;
}) {
  const { t } = useTranslation();
  const signOut = useSignOut();
  // Initials are decoration here: the button's name is "Menú de <name>" (label in name).
  const avatar = (
    <span aria-hidden style={{ display: 'contents' }}>
      <UserAvatar user={user} size={34} />
    </span>
  );
  return (
    <Menu position="bottom-end" width={240} shadow="md" withinPortal>
      <Menu.Target>
        <UnstyledButton
          className={buttonClassName}
          aria-label={t('admin.userMenu.open', { name: user.name })}
          data-testid="user-menu-button"
        >
          {nameClassName === undefined ? (
            avatar
          ) : (
            <Group gap={8} wrap="nowrap">
              {avatar}
              <Text size="sm" fw={600} truncate="end" className={nameClassName} visibleFrom="md">
                {user.name}
              </Text>
              <IconChevronDown size={14} aria-hidden />
            </Group>
          )}
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
          to={profilePath}
          leftSection={<IconUserCircle size={18} />}
          data-testid="user-menu-profile"
        >
          {t('admin.userMenu.profile')}
        </Menu.Item>
        {links.map((link) => (
          <Menu.Item
            key={link.key}
            component={Link}
            to={link.to}
            leftSection={link.icon}
            data-testid={`user-menu-${link.key}`}
          >
            {link.label}
          </Menu.Item>
        ))}
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
