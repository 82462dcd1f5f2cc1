import { formatTimeZoneName } from './clock';

/** The browser's own IANA time zone (the registration default). */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** "GMT+01:00"-style offset of a zone right now, or '' when the runtime cannot tell. */
export function timeZoneOffset(zone: string, at: Date = new Date()): string {
  try {
    const parts = new Intl.DateTimeFormat('en', { timeZone: zone, timeZoneName: 'longOffset' }).formatToParts(
      at,
    );
    return parts.find((part) => part.type === 'timeZoneName')?.value ?? '';
  } catch {
    return '';
  }
}

const cachedOptions = new Map<string, { value: string; label: string }[]>();

/**
 * Every IANA zone the browser knows, as select options labelled in words in the reader's language
 * ("(GMT-06:00) hora de Ciudad de México"), plus `extra` zones (the current value) when the list
 * lacks them. Built once per page and language.
 */
export function timeZoneOptions(
  extra: readonly string[] = [],
  language = 'en',
): { value: string; label: string }[] {
  let options = cachedOptions.get(language);
  if (!options) {
    let zones: string[];
    try {
      zones = Intl.supportedValuesOf('timeZone');
    } catch {
      zones = [];
    }
    const now = new Date();
    options = zones.map((zone) => toOption(zone, language, now));
    cachedOptions.set(language, options);
  }
  const known = options;
  const missing = extra.filter((zone) => zone && !known.some((option) => option.value === zone));
  return missing.length > 0
    ? [...missing.map((zone) => toOption(zone, language, new Date())), ...known]
    : known;
}

/** A zone's option label, "(GMT+01:00) hora de Madrid" (the offset left out when unknown); never its id. */
export function timeZoneLabel(zone: string, language = 'en', at: Date = new Date()): string {
  const offset = timeZoneOffset(zone, at);
  const name = formatTimeZoneName(zone, language);
  return offset ? `(${offset}) ${name}` : name;
}

function toOption(zone: string, language: string, at: Date) {
  return { value: zone, label: timeZoneLabel(zone, language, at) };
}
