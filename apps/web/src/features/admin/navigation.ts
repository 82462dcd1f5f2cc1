import {
  IconApps,
  IconCalendarEvent,
  IconCalendarWeek,
  IconClockHour4,
  IconDoorEnter,
  IconFileText,
  IconFirstAidKit,
  IconHistory,
  IconLayoutDashboard,
  IconListCheck,
  IconMail,
  IconNurse,
  IconSettings,
  IconShieldLock,
  IconSignature,
  IconStethoscope,
  IconUserCircle,
  IconUsers,
  type Icon,
} from '@tabler/icons-react';

export interface NavigationItem {
  key:
    | 'dashboard'
    | 'doctors'
    | 'appointments'
    | 'patients'
    | 'myRecord'
    | 'waitingRoom'
    | 'agenda'
    | 'schedule'
    | 'users'
    | 'roles'
    | 'specialties'
    | 'audit'
    | 'outbox'
    | 'settings'
    | 'apps'
    | 'questionnaires'
    | 'consentDocuments'
    | 'profile';
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
  { key: 'doctors', to: '/admin/doctors', icon: IconNurse, anyOf: ['doctors.read'] },
  {
    key: 'appointments',
    to: '/admin/appointments',
    icon: IconCalendarEvent,
    anyOf: ['appointments.read.own', 'appointments.read.any'],
  },
  {
    key: 'agenda',
    to: '/admin/agenda',
    icon: IconCalendarWeek,
    anyOf: ['visits.host', 'appointments.read.any'],
  },
  {
    key: 'patients',
    to: '/admin/patients',
    icon: IconFirstAidKit,
    anyOf: ['records.read', 'patients.read.admin'],
  },
  { key: 'myRecord', to: '/admin/my-record', icon: IconFileText, anyOf: ['records.read.own'] },
  { key: 'schedule', to: '/admin/schedule', icon: IconClockHour4, anyOf: ['availability.manage.own'] },
  {
    key: 'waitingRoom',
    to: '/admin/waiting-room',
    icon: IconDoorEnter,
    anyOf: ['visits.host', 'appointments.read.any'],
  },
  { key: 'users', to: '/admin/users', icon: IconUsers, anyOf: ['users.read', 'users.manage'] },
  { key: 'roles', to: '/admin/roles', icon: IconShieldLock, anyOf: ['roles.manage'] },
  { key: 'specialties', to: '/admin/specialties', icon: IconStethoscope, anyOf: ['specialties.manage'] },
  { key: 'audit', to: '/admin/audit', icon: IconHistory, anyOf: ['audit.read'] },
  { key: 'outbox', to: '/admin/outbox', icon: IconMail, anyOf: ['outbox.read'] },
  {
    key: 'questionnaires',
    to: '/admin/questionnaires',
    icon: IconListCheck,
    anyOf: ['settings.manage', 'doctors.profile.own'],
  },
  {
    key: 'consentDocuments',
    to: '/admin/consent-documents',
    icon: IconSignature,
    anyOf: ['settings.manage'],
  },
  { key: 'settings', to: '/admin/settings', icon: IconSettings, anyOf: ['settings.manage'] },
  { key: 'apps', to: '/admin/apps', icon: IconApps, anyOf: ['settings.manage'] },
  { key: 'profile', to: '/admin/profile', icon: IconUserCircle },
];
