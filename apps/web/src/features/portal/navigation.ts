import { IconCalendarEvent, IconFileText, IconHome, IconNurse, type Icon } from '@tabler/icons-react';

/** One place of the portal's navigation (`portal.nav.<key>`). */
export interface PortalNavigationItem {
  key: 'home' | 'doctors' | 'appointments' | 'myRecord';
  to: string;
  icon: Icon;
}

/** What a patient uses: their home (the next visit), finding a doctor, their visits, their record. */
export const portalNavigation: readonly PortalNavigationItem[] = [
  { key: 'home', to: '/portal', icon: IconHome },
  { key: 'doctors', to: '/portal/doctors', icon: IconNurse },
  { key: 'appointments', to: '/portal/appointments', icon: IconCalendarEvent },
  { key: 'myRecord', to: '/portal/my-record', icon: IconFileText },
];

/** Whether the item is the current page's place (the home only on itself; the others with their sub-pages). */
export function isCurrentPlace(item: PortalNavigationItem, pathName: string): boolean {
  const path = pathName.replace(/\/+$/, '').toLowerCase();
  if (item.to === '/portal') {
    return path === '/portal';
  }
  return (
    path === item.to ||
    path.startsWith(`${item.to}/`) ||
    (item.key === 'appointments' && path.startsWith('/portal/visits/'))
  );
}
