import type { AdminUser } from '@telemedicina/shared/admin';

/** The status shown for an account: `locked` is an active account with a sign-in lockout in force. */
export type UserDisplayStatus = 'active' | 'pending' | 'disabled' | 'locked';

export const userStatusColors: Record<UserDisplayStatus, string> = {
  active: 'teal',
  pending: 'blue',
  disabled: 'gray',
  locked: 'red',
};

/** True while a sign-in lockout is in force. */
export function isLocked(user: Pick<AdminUser, 'lockedUntil'>, now = Date.now()): boolean {
  return user.lockedUntil !== null && Date.parse(user.lockedUntil) > now;
}

/** What the status badge says for this account right now. */
export function displayStatus(
  user: Pick<AdminUser, 'status' | 'lockedUntil'>,
  now = Date.now(),
): UserDisplayStatus {
  return user.status === 'active' && isLocked(user, now) ? 'locked' : user.status;
}

/**
 * Up to two initials of a name ("Ana Pérez" → "AP", "Dra. Lucía Martínez" → "LM": abbreviated
 * titles are skipped), for the avatar when there is no photo.
 */
export function initialsOf(name: string): string {
  const all = name.trim().split(/\s+/).filter(Boolean);
  const named = all.filter((word) => !word.endsWith('.'));
  const words = named.length > 0 ? named : all;
  const letters = words.length > 1 ? [words[0], words[words.length - 1]] : words;
  return letters
    .map((word) => Array.from(word ?? '')[0] ?? '')
    .join('')
    .toLocaleUpperCase();
}
