import type { Language } from '@telemedicina/shared';
import type { AdminUserExtras } from './users-list.repository.js';
import type { UserRow } from './users.repository.js';

/**
 * The users export as CSV (RFC 4180, CRLF line ends): a header row and the
 * status and MFA words in the requester's language, instants in their time
 * zone. Encoding and formula defusing are lib/csv.ts's.
 */

const headers: Record<Language, readonly string[]> = {
  es: ['Nombre', 'Correo electrónico', 'Roles', 'Estado', 'Creado', 'Último acceso', 'MFA'],
  en: ['Name', 'Email', 'Roles', 'Status', 'Created', 'Last sign-in', 'MFA'],
};

const statusWords: Record<Language, Record<'active' | 'pending' | 'disabled' | 'locked', string>> = {
  es: { active: 'Activo', pending: 'Pendiente', disabled: 'Desactivado', locked: 'Bloqueado' },
  en: { active: 'Active', pending: 'Pending', disabled: 'Disabled', locked: 'Locked' },
};

const yesNo: Record<Language, [string, string]> = { es: ['Sí', 'No'], en: ['Yes', 'No'] };

export function userCsvHeader(language: Language): readonly string[] {
  return headers[language];
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
function statusOf(user: UserRow, extras: AdminUserExtras): keyof (typeof statusWords)['es'] {
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
  const [yes, no] = yesNo[format.language];
  return [
    user.name,
    user.email,
    roles.map((role) => (format.language === 'es' ? role.nameEs : role.nameEn)).join(', '),
    statusWords[format.language][statusOf(user, extras)],
    formatInstant(user.createdAt, format.timeZone),
    formatInstant(user.lastSignInAt, format.timeZone),
    user.mfaEnabledAt === null ? no : yes,
  ];
}
