import type { Icon } from '@tabler/icons-react';

/** The sections the home page can offer as shortcuts (each has `admin.nav.*` and `home.links.*` texts). */
export const homeLinkKeys = [
  'doctors',
  'appointments',
  'agenda',
  'patients',
  'myRecord',
  'schedule',
  'waitingRoom',
  'users',
  'roles',
  'specialties',
  'audit',
  'outbox',
  'settings',
  'profile',
] as const;
export type HomeLinkKey = (typeof homeLinkKeys)[number];

/** A shortcut on the home page: one of the sections the viewer may open. */
export interface HomeLink {
  key: HomeLinkKey;
  to: string;
  icon: Icon;
}

const keys: ReadonlySet<string> = new Set(homeLinkKeys);

/** Whether a navigation item is one the home page offers as a shortcut (not itself). */
export function isHomeLink<T extends { key: string; to: string; icon: Icon }>(item: T): item is T & HomeLink {
  return keys.has(item.key);
}
