import type { Language } from '@telemedicina/shared/i18n';
import { t } from '../../text/catalogue.js';
import type { AdminUserExtras } from './users-list.repository.js';
import type { UserRow } from './users.repository.js';

/**
 * The users export as CSV (RFC 4180, CRLF line ends): a header row and the
 * status and MFA words in the requester's language, instants in their time
 * zone. Encoding and formula defusing are lib/csv.ts's.
 */

export function userCsvHeader(language: Language): readonly string[] {
  return [
    t(language, 'csv.users.name'),
    t(language, 'csv.users.email'),
    t(language, 'csv.users.roles'),
    t(language, 'csv.users.status'),
    t(language, 'csv.users.created'),
    t(language, 'csv.users.lastSignIn'),
    t(language, 'csv.users.mfa'),
  ];
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** `YYYY-MM-DD HH:mm` in the time zone (one formatter per zone, reused). */
function formatInstant(at: Date | null, timeZone: string): string {
  if (at === null) {
    return '';
  }
  let formatter = formatters.get(timeZone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, formatter);
  }
  const parts = Object.fromEntries(formatter.formatToParts(at).map((part) => [part.type, part.value]));
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
}

/** The status a person reads: a lockout in force shows on an active account. */
function statusOf(user: UserRow, extras: AdminUserExtras): 'active' | 'pending' | 'disabled' | 'locked' {
  if (user.status === 'active') {
    return extras.lockedUntilByEmail.has(user.email) ? 'locked' : 'active';
  }
  return user.status === 'disabled' ? 'disabled' : 'pending';
}

export function userCsvRow(
  user: UserRow,
  extras: AdminUserExtras,
  format: { language: Language; timeZone: string },
): string[] {
  const roles = extras.rolesByUser.get(user.id) ?? [];
  return [
    user.name,
    user.email,
    roles.map((role) => (format.language === 'es' ? role.nameEs : role.nameEn)).join(', '),
    t(format.language, `csv.users.statuses.${statusOf(user, extras)}`),
    formatInstant(user.createdAt, format.timeZone),
    formatInstant(user.lastSignInAt, format.timeZone),
    t(format.language, user.mfaEnabledAt === null ? 'csv.users.no' : 'csv.users.yes'),
  ];
}
