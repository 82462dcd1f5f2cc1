import {
  IconComponents,
  IconHistory,
  IconLayoutDashboard,
  IconMail,
  IconSettings,
  IconShieldLock,
  IconStethoscope,
  IconUserCircle,
  IconUsers,
  type Icon,
} from '@tabler/icons-react';

/** List sections reached from the side navigation: each has its own search and pagination. */
export const listSections = {
  users: { endpoint: '/users', anyOf: ['users.read', 'users.manage'], icon: IconUsers },
  roles: { endpoint: '/roles', anyOf: ['roles.manage'], icon: IconShieldLock },
  specialties: { endpoint: '/specialties', anyOf: ['specialties.manage'], icon: IconStethoscope },
  audit: { endpoint: '/audit-events', anyOf: ['audit.read'], icon: IconHistory },
} as const satisfies Record<string, { endpoint: string; anyOf: readonly string[]; icon: Icon }>;

export type ListSectionKey = keyof typeof listSections;

export function isListSectionKey(value: string | undefined): value is ListSectionKey {
  return value !== undefined && Object.hasOwn(listSections, value);
}

export interface NavigationItem {
  key: 'dashboard' | ListSectionKey | 'outbox' | 'settings' | 'profile' | 'components';
  to: string;
  icon: Icon;
  /** Shown only to users holding at least one of these; always shown (to anyone signed in) when absent. */
  anyOf?: readonly string[];
}

/**
 * The side navigation, in order. Items with `anyOf` appear by permission (`hasAnyPermission`); the
 * names are those of the shared permission catalogue (packages/shared/src/permission-catalogue.ts).
 */
export const navigationItems: readonly NavigationItem[] = [
  { key: 'dashboard', to: '/admin', icon: IconLayoutDashboard },
  ...Object.entries(listSections).map(([key, section]) => ({
    key: key as ListSectionKey,
    to: `/admin/${key}`,
    icon: section.icon,
    anyOf: section.anyOf,
  })),
  { key: 'outbox', to: '/admin/outbox', icon: IconMail, anyOf: ['outbox.read'] },
  { key: 'settings', to: '/admin/settings', icon: IconSettings, anyOf: ['settings.manage'] },
  { key: 'profile', to: '/admin/profile', icon: IconUserCircle },
  { key: 'components', to: '/admin/components', icon: IconComponents },
];
