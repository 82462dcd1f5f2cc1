import { useMemo } from 'react';
import {
  formatDate,
  formatInZone,
  formatDateTime,
  formatLongDateTime,
  formatShortDateTime,
  formatTime,
  formatTimeRange,
  formatTimeZoneName,
  deviceTimeZone,
  type Instant,
} from './clock';
import { useMe } from './session';
import { useLanguage } from './ui-state';

/**
 * The viewer's clock: their account's zone (the device's only when no one is signed in — a guest
 * or the sign-in page), so a visit reads the same time on every screen whatever the device's zone.
 */
export function useViewerTimeZone(): string {
  return useMe().data?.user.timeZone || deviceTimeZone();
}

export interface Clock {
  language: string;
  timeZone: string;
  dateTime: (instant: Instant) => string;
  longDateTime: (instant: Instant) => string;
  shortDateTime: (instant: Instant) => string;
  date: (instant: Instant) => string;
  time: (instant: Instant) => string;
  timeRange: (start: Instant, end: Instant) => string;
  /** Any other shape of an instant in the viewer's zone. */
  format: (instant: Instant, options: Intl.DateTimeFormatOptions) => string;
  /** "hora de Ciudad de México": the viewer's zone, or another one, in words. */
  zoneName: (timeZone?: string) => string;
}

/** The `lib/clock` formatters bound to the viewer's language and account zone. */
export function useClock(): Clock {
  const language = useLanguage();
  const timeZone = useViewerTimeZone();
  return useMemo(
    () => ({
      language,
      timeZone,
      dateTime: (instant) => formatDateTime(instant, language, timeZone),
      longDateTime: (instant) => formatLongDateTime(instant, language, timeZone),
      shortDateTime: (instant) => formatShortDateTime(instant, language, timeZone),
      date: (instant) => formatDate(instant, language, timeZone),
      time: (instant) => formatTime(instant, language, timeZone),
      timeRange: (start, end) => formatTimeRange(start, end, language, timeZone),
      format: (instant, options) => formatInZone(instant, language, timeZone, options),
      zoneName: (zone = timeZone) => formatTimeZoneName(zone, language),
    }),
    [language, timeZone],
  );
}
