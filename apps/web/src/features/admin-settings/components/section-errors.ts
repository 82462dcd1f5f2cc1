import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from '../../../lib/api-client';

/** The sections of the clinic settings, each saved on its own (`PATCH /settings { <section>: … }`). */
export const settingsSections = [
  'clinic',
  'sessions',
  'security',
  'booking',
  'uploads',
  'video',
  'privacy',
] as const;
export type SettingsSection = (typeof settingsSections)[number];

export function isSettingsSection(value: unknown): value is SettingsSection {
  return settingsSections.includes(value as SettingsSection);
}

/**
 * Puts a 400 VALIDATION_FAILED answer's issues beside the section's fields: the server names them
 * from the body's root (`booking.defaultVisitMinutes`, `video.iceServers.0.urls.1`), the form from
 * the section's. An issue about the whole section goes to the form's root. Returns false when no
 * issue concerned this section (the caller shows the error another way).
 */
export function applySectionErrors<T extends FieldValues>(
  error: unknown,
  section: SettingsSection,
  setError: UseFormSetError<T>,
): boolean {
  if (!(error instanceof ApiError) || !error.fieldErrors) {
    return false;
  }
  let isApplied = false;
  for (const [path, message] of Object.entries(error.fieldErrors)) {
    if (path === section) {
      setError('root.server', { type: 'server', message });
      isApplied = true;
    } else if (path.startsWith(`${section}.`)) {
      setError(
        path.slice(section.length + 1) as Path<T>,
        { type: 'server', message },
        { shouldFocus: !isApplied },
      );
      isApplied = true;
    }
  }
  return isApplied;
}

/** The first error message found anywhere under a field (an array's items, an object's fields). */
export function firstErrorMessage(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) {
    return undefined;
  }
  const record = error as Record<string, unknown>;
  if (typeof record.message === 'string' && record.message !== '') {
    return record.message;
  }
  for (const [key, value] of Object.entries(record)) {
    if (key === 'ref' || key === 'type') {
      continue;
    }
    const found = firstErrorMessage(value);
    if (found) {
      return found;
    }
  }
  return undefined;
}
